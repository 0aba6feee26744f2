/**
 * Staff set a company's Peppol participant id on its record: a scheme from the list and a value its
 * rule accepts (a bad one is refused at the field with 400, nothing written), audited; removing it is
 * a button of its own. The company's UBL then claims Peppol BIS Billing 3.0 (tests/integration/e-invoices.test.ts).
 */
import { describe, expect, test } from "vitest";
import { Audit } from "~/models/audit.server";
import { getCompany } from "~/models/company.server";
import { action as companyAction, loader as companyLoader } from "~/routes/dashboard.companies_.$id/route";
import { createUser, sessionCookieHeader } from "../setup/factories";
import { actionArgs, getRequest, loaderArgs, postRequest, settle } from "../setup/requests";

describe("a company's Peppol participant id", () => {
  test("staff set it (a bad value refused at the field, nothing written), it is audited, and they remove it", async () => {
    const owner = await createUser({ name: "Greta Gmbh" });
    const companyId = owner.companyId!;
    const cookie = await sessionCookieHeader((await createUser({ role: "admin" })).id);
    const path = `/dashboard/companies/${companyId}`;
    const post = (fields: Record<string, string>) =>
      settle(companyAction(actionArgs(postRequest(path, fields, { cookie }), { id: companyId })));
    const errors = async (response: Response) =>
      ((await response.json()) as { result: { error?: Record<string, string[]> } }).result.error ?? {};

    for (const [fields, field, message] of [
      [{ scheme: "9930", id: "DE12345" }, "id", "That is not a valid German VAT number, such as DE123456789"],
      [{ scheme: "0088", id: "5790000435976" }, "id", /not a valid GLN/],
      [{ scheme: "EM", id: "buyer@example.com" }, "scheme", "Choose the identifier's scheme"],
      [{ scheme: "9930", id: "" }, "id", "Enter the identifier"],
    ] as const) {
      const refused = await post({ intent: "peppol", ...fields });
      expect(refused.status).toBe(400);
      expect((await errors(refused))[field]?.join(" ")).toMatch(message);
      expect((await getCompany(companyId))!.company.peppol).toBeNull();
    }

    expect((await post({ intent: "peppol", scheme: "9930", id: "de 811 907 980" })).status).toBe(302);
    expect((await getCompany(companyId))!.company.peppol).toEqual({ scheme: "9930", id: "DE811907980" });
    const page = await settle(companyLoader(loaderArgs(getRequest(path, { cookie }), { id: companyId })));
    expect((await page.json()).company.peppol).toEqual({ scheme: "9930", id: "DE811907980" });
    expect(await Audit.countDocuments({ action: "company.set-peppol-id", targetId: companyId })).toBe(1);

    expect((await post({ intent: "peppol-remove" })).status).toBe(302);
    expect((await getCompany(companyId))!.company.peppol).toBeNull();
    expect(await Audit.countDocuments({ action: "company.set-peppol-id", targetId: companyId })).toBe(2);
  });
});
