import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getOrderById } from "~/orders/model/reads.server";
import { apiCall, methodNotAllowed, notFound, ok, problem, readJson } from "~/utils/api.server";
import { ShipBody } from "~/utils/api-schemas.server";
import { orderJson } from "~/utils/api-views.server";
import { shipOrder } from "~/orders/service.server";

/** POST /api/v1/staff/orders/{id}/ship: marks an order shipped with its carrier and tracking number. */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== "POST") return methodNotAllowed("POST");
  return apiCall(args, "orders", async ({ user }) => {
    const current = await getOrderById(args.params.id ?? "");
    if (!current) throw notFound("That order does not exist.");
    const body = await readJson(args.request, ShipBody);
    const shipped = await shipOrder(
      current.id,
      { carrier: body.carrier, trackingNumber: body.trackingNumber || null },
      { actor: user, context: args.context, current },
    );
    if (!shipped.ok) return problem(shipped.status, shipped.message);
    return ok(orderJson(shipped.order));
  });
}

export const loader = (_args: LoaderFunctionArgs) => methodNotAllowed("POST");
