import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { cancelPaidOrderWithCredit } from "~/orders/credit-notes.server";
import { apiCall, methodNotAllowed, ok, problem, readJson } from "~/services/api.server";
import { CancelBody } from "~/services/api-schemas.server";
import { orderJson } from "~/orders/api-view.server";

/**
 * POST /api/v1/staff/orders/{id}/cancel: cancels a paid (or invoiced) order before it ships, as the
 * order's page does: its stock goes back, a credit note credits it in full, a card is refunded. The
 * body is optional (callers from before reasons send none); a reason given is kept and shown to the customer.
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== "POST") return methodNotAllowed("POST");
  return apiCall(args, "payments", async ({ user }) => {
    const { headers } = args.request;
    const sent = headers.has("content-type") && headers.get("content-length") !== "0";
    const { reason } = sent ? await readJson(args.request, CancelBody) : { reason: undefined };
    const cancelled = await cancelPaidOrderWithCredit(args.params.id ?? "", {
      actor: user,
      context: args.context,
      reason,
    });
    if (!cancelled.ok) return problem(cancelled.status, cancelled.message);
    return ok(orderJson(cancelled.order));
  });
}

export const loader = (_args: LoaderFunctionArgs) => methodNotAllowed("POST");
