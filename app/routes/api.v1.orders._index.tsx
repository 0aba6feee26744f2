import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { listOrdersAfter, ORDER_CURSOR_PATTERN } from "~/orders/model/search.server";
import {
  apiCall,
  decodeCursor,
  encodeCursor,
  idempotent,
  ok,
  problem,
  readJson,
  readQuery,
  validationProblem,
} from "~/services/api.server";
import { OrderListQuery, PlaceOrderBody } from "~/services/api-schemas.server";
import { orderJson } from "~/orders/api-view.server";
import { placeCustomerOrder } from "~/orders/service.server";
import { notPlacedProblem } from "~/orders/place-replies.server";
import { findPartByNumber } from "~/services/part-number.server";

/** GET /api/v1/orders: the key owner's orders, newest first. */
export async function loader(args: LoaderFunctionArgs) {
  return apiCall(args, "read", async ({ user }) => {
    const query = readQuery(args.request, OrderListQuery);
    const after = decodeCursor(query.cursor, ORDER_CURSOR_PATTERN);
    const { orders, next } = await listOrdersAfter({ customer: user }, { after, limit: query.limit });
    return ok({ data: orders.map(orderJson), nextCursor: next ? encodeCursor(next) : null });
  });
}

/**
 * POST /api/v1/orders: places an order of lines given by part number (or OE number) and quantity,
 * through the same service as checkout and the quick-order pad. Idempotency-Key makes a retry safe.
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== "POST")
    return problem(405, "This address takes GET and POST only.", { headers: { Allow: "GET, POST" } });
  return apiCall(args, "order", async ({ user }) => {
    const body = await readJson(args.request, PlaceOrderBody);
    return idempotent(args.request, { ownerId: user.id, operation: "place-order", body }, async () => {
      const parts = await Promise.all(body.lines.map((line) => findPartByNumber(line.partNumber)));
      const unknown = parts.flatMap((part, index) =>
        part
          ? []
          : [
              {
                field: `lines.${index}.partNumber`,
                message: `No part has the number “${body.lines[index].partNumber}”`,
              },
            ],
      );
      if (unknown.length) return validationProblem(unknown);
      const placed = await placeCustomerOrder({
        lines: body.lines.map((line, index) => ({ partId: parts[index]!.id, quantity: line.quantity })),
        phone: body.phone,
        delivery: body.deliveryAddress,
        poNumber: body.poNumber,
        user,
        payment: body.payment,
      });
      if (!placed.ok) return notPlacedProblem(placed, (index) => body.lines[index]?.partNumber);
      return ok(orderJson(placed.order), { status: 201, headers: { Location: `/api/v1/orders/${placed.order.id}` } });
    });
  });
}
