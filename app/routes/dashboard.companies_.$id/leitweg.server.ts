/**
 * The Leitweg-ID form on a company's record: staff set a German public buyer's Leitweg-ID (refused at
 * the field with 400 when it is not one, or the company is not German; nothing written), or remove it.
 * Audited by the service; the page says it with a toast.
 */
import { type ActionFunctionArgs, data } from "@remix-run/node";
import type { SubmissionResult } from "@conform-to/react";
import type { CompanyView } from "~/models/company.server";
import { setLeitwegOfCompany } from "~/services/companies.server";
import { parseForm } from "~/services/form.server";
import { redirectWithSuccess } from "~/services/toast.server";
import { companyLeitwegSchema } from "./forms";

export type LeitwegReply = { intent: "leitweg"; result: SubmissionResult<string[]> };

export async function setLeitwegFromForm(
  formData: FormData,
  {
    admin,
    company,
    context,
    back,
  }: {
    admin: { id: string; email: string };
    company: CompanyView;
    context: ActionFunctionArgs["context"];
    back: string;
  },
) {
  const intent = "leitweg" as const;
  const removing = formData.get("intent") === "leitweg-remove";
  const submission = parseForm(formData, { schema: companyLeitwegSchema(company.company.country) });
  if (!removing && submission.status !== "success")
    return data<LeitwegReply>({ intent, result: submission.reply() }, { status: 400 });
  const leitwegId = !removing && submission.status === "success" ? submission.value.leitwegId : null;
  if (!(await setLeitwegOfCompany(admin, company, leitwegId, context))) {
    const changed = ["This company changed meanwhile; reload the page."];
    return data<LeitwegReply>({ intent, result: submission.reply({ formErrors: changed }) }, { status: 409 });
  }
  const label = company.company.companyName || "The company";
  return redirectWithSuccess(
    back,
    leitwegId
      ? `${label} is a German public buyer: its e-invoices are XRechnung, to Leitweg-ID ${leitwegId}`
      : `${label} has no Leitweg-ID now`,
  );
}
