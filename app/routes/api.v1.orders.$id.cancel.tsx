import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getOwnOrder } from "~/orders/model/reads.server";
import { cancelCustomerOrder } from "~/orders/service.server";
import { mayHandleOrder } from "~/services/companies.server";
import { apiCall, methodNotAllowed, notFound, ok, problem } from "~/services/api.server";
import { orderJson } from "~/orders/api-view.server";
import { ORDER_STATE_WORDS } from "~/domain/order-states";

/** POST /api/v1/orders/{id}/cancel: cancels an unpaid order, as My Orders does (its stock goes back). */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== "POST") return methodNotAllowed("POST");
  return apiCall(args, "order", async ({ user }) => {
    const order = await getOwnOrder(args.params.id ?? "", user);
    // A buyer cancels their own orders; owners and accounts any of the company's.
    if (!order || !mayHandleOrder(user, order) || order.status === "reserving" || order.status === "failed")
      throw notFound("No such order in your account.");
    const cancelled = order.status === "unpaid" ? await cancelCustomerOrder(order.id, user) : null;
    if (!cancelled) {
      const now = (await getOwnOrder(order.id, user)) ?? order;
      return problem(409, `Only unpaid orders can be cancelled; ${now.number} is ${ORDER_STATE_WORDS[now.state]}.`);
    }
    return ok(orderJson(cancelled));
  });
}

export const loader = (_args: LoaderFunctionArgs) => methodNotAllowed("POST");
