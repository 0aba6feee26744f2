/**
 * The Pay out form of a credit note holding credit (a company's record and Shop Today): the bank
 * transfer's reference is required (refused at the field, nothing written); the payout is the
 * order's own workflow (orders/payouts.server.ts), and the page it came from says it with a toast.
 */
import { type ActionFunctionArgs, data } from "@remix-run/node";
import type { PayoutReply } from "~/components/credit-payout";
import { formatCents } from "~/format";
import { payoutSchema } from "~/forms/order-forms";
import { getOrderById } from "~/orders/model/reads.server";
import { payOutCredit } from "~/orders/payouts.server";
import { parseForm } from "~/services/form.server";
import { redirectWithSuccess } from "~/services/toast.server";

const NO_NOTE = "That credit note does not exist.";
const OBJECT_ID = /^[a-f0-9]{24}$/i;

/**
 * Pays out the posted credit note's credit and goes `back`; `accountId` keeps it to one account's
 * notes (a company's record). A refusal answers the form with its field or form error.
 */
export async function payOutFromForm(
  formData: FormData,
  {
    admin,
    context,
    back,
    accountId,
  }: { admin: { id: string; email: string }; context: ActionFunctionArgs["context"]; back: string; accountId?: string },
) {
  const submission = parseForm(formData, { schema: payoutSchema });
  const noteId = String(formData.get("creditNoteId") ?? "");
  const reply = (result: PayoutReply["result"], status: number) =>
    data<PayoutReply>({ intent: "payout", noteId, result }, { status });
  if (submission.status !== "success") return reply(submission.reply(), 400);
  const orderId = String(formData.get("orderId") ?? "");
  const order = OBJECT_ID.test(orderId) ? await getOrderById(orderId) : null;
  if (!order || (accountId !== undefined && order.companyId !== accountId))
    throw new Response(NO_NOTE, { status: 404 });
  const paid = await payOutCredit(order.id, submission.value.creditNoteId, submission.value.reference, {
    actor: { id: admin.id, email: admin.email },
    context,
  });
  if (!paid.ok) {
    if (paid.status === 404) throw new Response(NO_NOTE, { status: 404 });
    return reply(submission.reply({ formErrors: [paid.message] }), paid.status);
  }
  return redirectWithSuccess(
    back,
    `Payout of ${formatCents(paid.note.payout?.amountCents ?? 0)} recorded for credit note ${paid.note.number} (${paid.order.number})`,
  );
}
