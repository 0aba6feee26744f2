import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getOrderById } from "~/orders/model/reads.server";
import { apiCall, methodNotAllowed, notFound, ok, problem, readJson } from "~/services/api.server";
import { ShipBody } from "~/services/api-schemas.server";
import { orderJson } from "~/orders/api-view.server";
import { shipOrder } from "~/orders/warehouse.server";

/**
 * POST /api/v1/staff/orders/{id}/ship: a parcel of the order, with its carrier and tracking number:
 * the lines and units given by part number, or every unit that can ship now.
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== "POST") return methodNotAllowed("POST");
  return apiCall(args, "orders", async ({ user }) => {
    const current = await getOrderById(args.params.id ?? "");
    if (!current) throw notFound("That order does not exist.");
    const body = await readJson(args.request, ShipBody);
    const lines = body.lines?.map((line) => ({
      lineIndex: current.lines.findIndex((entry) => entry.partNumber === line.partNumber.toUpperCase()),
      quantity: line.quantity,
    }));
    const unknown = lines?.findIndex((line) => line.lineIndex < 0) ?? -1;
    if (unknown >= 0) return problem(422, `${body.lines![unknown].partNumber} is not a line of ${current.number}.`);
    const shipped = await shipOrder(
      current.id,
      { carrier: body.carrier, trackingNumber: body.trackingNumber || null, lines },
      { actor: user, context: args.context, current },
    );
    if (!shipped.ok) return problem(shipped.status, shipped.message);
    return ok(orderJson(shipped.order));
  });
}

export const loader = (_args: LoaderFunctionArgs) => methodNotAllowed("POST");
