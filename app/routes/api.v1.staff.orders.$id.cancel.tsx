import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { cancelPaidOrderWithCredit } from "~/orders/credit-notes.server";
import { apiCall, methodNotAllowed, ok, problem } from "~/services/api.server";
import { orderJson } from "~/orders/api-view.server";

/**
 * POST /api/v1/staff/orders/{id}/cancel: cancels a paid (or invoiced) order before it ships, as the
 * order's page does: its stock goes back, a credit note credits it in full, a card is refunded.
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== "POST") return methodNotAllowed("POST");
  return apiCall(args, "payments", async ({ user }) => {
    const cancelled = await cancelPaidOrderWithCredit(args.params.id ?? "", { actor: user, context: args.context });
    if (!cancelled.ok) return problem(cancelled.status, cancelled.message);
    return ok(orderJson(cancelled.order));
  });
}

export const loader = (_args: LoaderFunctionArgs) => methodNotAllowed("POST");
