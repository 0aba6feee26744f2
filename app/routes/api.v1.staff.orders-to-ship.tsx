import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { listOrdersAfter, ORDER_CURSOR_PATTERN } from "~/orders/model/search.server";
import { apiCall, decodeCursor, encodeCursor, methodNotAllowed, ok, readQuery } from "~/services/api.server";
import { ToShipQuery } from "~/services/api-schemas.server";
import { orderJson } from "~/orders/api-view.server";

/** GET /api/v1/staff/orders-to-ship: paid orders and orders on account waiting to ship, newest first. */
export async function loader(args: LoaderFunctionArgs) {
  return apiCall(args, "orders", async () => {
    const query = readQuery(args.request, ToShipQuery);
    const after = decodeCursor(query.cursor, ORDER_CURSOR_PATTERN);
    const { orders, next } = await listOrdersAfter({ toShip: true }, { after, limit: query.limit });
    return ok({ data: orders.map(orderJson), nextCursor: next ? encodeCursor(next) : null });
  });
}

export const action = (_args: ActionFunctionArgs) => methodNotAllowed("GET");
