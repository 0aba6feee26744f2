/**
 * The demo's webhooks: the trade company's endpoint with one delivery delivered and one failed.
 */
import { addEndpoint, addSettledDelivery, countEndpointsOf } from "~/models/webhook.server";
import type { OrderEvent } from "~/orders/events.server";
import type { OrderView } from "~/orders/model/view.server";
import { eventBody, eventIdOf, typeOf } from "~/orders/webhook-events.server";
import { newSecret } from "~/services/webhooks.server";

/**
 * The demo's trade company has an endpoint, added by its owner (a name that never resolves: nothing
 * leaves the demo) with one delivery delivered and one failed, so the Webhooks screen shows both on
 * first start.
 */
export async function ensureDemoWebhooks(customerId: string, companyId: string, orders: OrderView[]) {
  if ((await countEndpointsOf({ companyId })) > 0 || orders.length < 2) return;
  const endpoint = await addEndpoint({
    ownerId: customerId,
    companyId,
    scope: "own",
    url: "https://erp.northside-fleet.invalid/partsworks",
    secret: newSecret(),
  });
  const [first, second] = orders;
  const settled = [
    { event: { type: "orderPlaced", order: first, belowMinimum: [] } as OrderEvent, status: "delivered" as const },
    { event: { type: "orderShipped", order: second } as OrderEvent, status: "failed" as const },
  ];
  for (const { event, status } of settled) {
    const at = new Date(event.order.createdAt);
    await addSettledDelivery({
      eventId: eventIdOf(event),
      endpointId: endpoint.id,
      ownerId: customerId,
      type: typeOf(event)!,
      orderId: event.order.id,
      orderNumber: event.order.number,
      body: eventBody(event, at),
      status,
      at,
      ...(status === "delivered"
        ? { attempts: 1, lastStatusCode: 204 }
        : { attempts: 14, lastStatusCode: 503, lastError: "answered 503" }),
    });
  }
}
