/**
 * The warehouse's services: shipping an order in parcels, and stock that arrives going to the
 * orders waiting on backorder (oldest first). Each calls the models, raises the order's events
 * (mail, webhooks) and audits.
 */
import { logFailure } from "~/services/log.server";
import { ORDER_STATE_WORDS } from "~/domain/order-states";
import { allocateBackorders, listPartsToAllocate } from "~/models/stock-holds.server";
import { copyBackorders, listBackorderedOrderIds } from "~/orders/model/backorders.server";
import { assignInvoiceNumber } from "~/orders/model/invoice.server";
import { getOrderById } from "~/orders/model/reads.server";
import { recordShipment, type ShipmentInput } from "~/orders/model/shipments.server";
import type { OrderView } from "~/orders/model/view.server";
import { audit, type AuditEvent } from "~/services/audit-trail.server";
import { describeShipment } from "~/domain/shipping";
import { raiseOrderEvent } from "./events.server";
import { postToLedger } from "./ledger.server";

type Actor = { id: string; email: string };

export type ShipOutcome =
  | { ok: true; order: OrderView; shipmentId: string; complete: boolean }
  | { ok: false; status: 404 | 409 | 422; message: string; lineIndex?: number };

/**
 * Ships a parcel of a paid order, or one on account: the lines and units given, or every unit on
 * the shelf not shipped yet. The order is shipped once every unit is, part-shipped before.
 */
export async function shipOrder(
  orderId: string,
  shipment: ShipmentInput,
  { actor, context, current }: { actor: Actor; context?: AuditEvent["context"]; current: OrderView | null },
): Promise<ShipOutcome> {
  const result = await recordShipment(orderId, { ...shipment, shippedBy: actor.email });
  switch (result.outcome) {
    case "not_found":
      return { ok: false, status: 404, message: "That order does not exist." };
    case "not_shippable":
      return {
        ok: false,
        status: 409,
        message: `Only paid orders, or orders on account, waiting to ship can be shipped; ${result.order.number} is ${ORDER_STATE_WORDS[result.order.state]}.`,
      };
    case "changed":
      return {
        ok: false,
        status: 409,
        message: `Another parcel of ${result.order.number} was recorded just now; check what is left to ship and try again.`,
      };
    case "too_many":
      return { ok: false, status: 422, message: result.message, lineIndex: result.lineIndex };
    case "nothing":
      return { ok: false, status: 422, message: result.message };
  }
  const { shipmentId, complete } = result;
  let { order } = result;
  if (complete && !order.invoiceNumber) order = await invoiceOnShipping(order);
  await raiseOrderEvent({ type: "shipmentCreated", order, shipmentId });
  if (complete) await raiseOrderEvent({ type: "orderShipped", order });
  const parcel = order.shipments.find((entry) => entry.id === shipmentId);
  await audit({
    context,
    actor,
    action: "order.ship",
    target: { type: "order", id: order.id, label: `${order.number}: ${order.summary} for ${order.userEmail}` },
    before: { status: current ? ORDER_STATE_WORDS[current.state] : null },
    after: {
      status: ORDER_STATE_WORDS[order.state],
      parcel: parcel?.number ?? null,
      units:
        parcel?.lines.map((line) => `${line.quantity} × ${line.partNumber || line.productName}`).join(", ") ?? null,
      carrier: shipment.carrier,
      trackingNumber: shipment.trackingNumber ?? null,
      shippedWith:
        describeShipment({ carrier: shipment.carrier, trackingNumber: shipment.trackingNumber ?? null })?.text ?? null,
    },
  });
  return { ok: true, order, shipmentId, complete };
}

/**
 * An intra-community supply's invoice, numbered and dated the day it shipped whole, and posted to the
 * ledger. A failure never undoes the shipment: the stock sweep numbers what a crash left (invoicePending).
 */
async function invoiceOnShipping(order: OrderView) {
  try {
    const number = await assignInvoiceNumber(order.id);
    const numbered = number ? await getOrderById(order.id) : null;
    if (!numbered) return order;
    await postToLedger(numbered);
    return numbered;
  } catch (error) {
    logFailure(`Invoice number not assigned to shipped order ${order.number}`, error);
    return order;
  }
}

/** Units of stock that arrived on a part, given to one order waiting on backorder. */
export type ArrivedAllocation = { partId: string; orderId: string; orderNumber: string; quantity: number };

/**
 * Stock rose on these parts (a restock, an import, an order's stock given back): units waiting on
 * backorder get it, oldest order first, and each order that got some is mailed. Returns what went
 * to whom, one entry per part and order. Never throws: what a failure leaves, the stock sweep
 * allocates (allocateLeftBackorders).
 */
export async function allocateArrivedStock(partIds: string[]): Promise<ArrivedAllocation[]> {
  const given: Omit<ArrivedAllocation, "orderNumber">[] = [];
  for (const partId of new Set(partIds)) {
    try {
      for (const { orderId, units } of await allocateBackorders(partId)) {
        // A second pass over the same hold (stock that came while it ran) adds to the first.
        const same = given.find((entry) => entry.partId === partId && entry.orderId === orderId);
        if (same) same.quantity += units;
        else given.push({ partId, orderId, quantity: units });
      }
    } catch (error) {
      logFailure(`Stock of part ${partId} not allocated to its backorders (the stock sweep will)`, error);
    }
  }
  const numbers = new Map<string, string>();
  for (const orderId of new Set(given.map((entry) => entry.orderId)))
    numbers.set(orderId, await noteAllocated(orderId));
  return given.map((entry) => ({ ...entry, orderNumber: numbers.get(entry.orderId) ?? "" }));
}

/** The order copies what it got and is mailed; returns its number ("" when even that cannot be read). */
async function noteAllocated(orderId: string) {
  try {
    const order = await copyBackorders(orderId, { allocated: true });
    if (order) await raiseOrderEvent({ type: "backorderAllocated", order });
    if (order) return order.number;
  } catch (error) {
    logFailure(`Allocation to order ${orderId} not copied to it (the stock sweep will)`, error);
  }
  try {
    return (await getOrderById(orderId))?.number ?? "";
  } catch {
    return "";
  }
}

/** The stock sweep's part: parts with stock and backorders both (a crash between the two), and orders to copy again. */
export async function allocateLeftBackorders() {
  const allocated = await allocateArrivedStock(await listPartsToAllocate());
  for (const orderId of await listBackorderedOrderIds()) await copyBackorders(orderId);
  return allocated;
}

/** How many orders got stock. */
export const ordersAllocated = (allocations: ArrivedAllocation[]) =>
  new Set(allocations.map((entry) => entry.orderId)).size;
