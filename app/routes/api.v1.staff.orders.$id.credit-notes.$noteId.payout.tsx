import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { payOutCredit } from "~/orders/payouts.server";
import { apiCall, methodNotAllowed, ok, problem, readJson } from "~/services/api.server";
import { PayoutBody } from "~/services/api-schemas.server";
import { orderJson } from "~/orders/api-view.server";

/**
 * POST /api/v1/staff/orders/{id}/credit-notes/{noteId}/payout: records a credit note's account credit
 * paid out by bank transfer, with the bank's reference, as the order's page does (once).
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== "POST") return methodNotAllowed("POST");
  return apiCall(args, "payments", async ({ user }) => {
    const body = await readJson(args.request, PayoutBody);
    const paid = await payOutCredit(args.params.id ?? "", args.params.noteId ?? "", body.reference, {
      actor: user,
      context: args.context,
    });
    if (!paid.ok) return problem(paid.status, paid.message);
    return ok(orderJson(paid.order));
  });
}

export const loader = (_args: LoaderFunctionArgs) => methodNotAllowed("POST");
