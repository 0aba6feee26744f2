import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getOwnOrder } from "~/orders/model/reads.server";
import { apiCall, methodNotAllowed, notFound, ok } from "~/services/api.server";
import { orderJson } from "~/orders/api-view.server";

/** GET /api/v1/orders/{id}: one of the key owner's orders (any other id is a 404). */
export async function loader(args: LoaderFunctionArgs) {
  return apiCall(args, "read", async ({ user }) => {
    const order = await getOwnOrder(args.params.id ?? "", user);
    if (!order || order.status === "reserving" || order.status === "failed")
      throw notFound("No such order in your account.");
    return ok(orderJson(order));
  });
}

export const action = (_args: ActionFunctionArgs) => methodNotAllowed("GET");
