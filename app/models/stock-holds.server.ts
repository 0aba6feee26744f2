/**
 * What happens to an order's hold on a part after it is taken: backordered units allocated when
 * stock arrives (oldest hold first), and held units leaving in a shipment. Every change is one
 * conditional update on the part, made on the hold as it was read (by its place in the list, which
 * the local database needs instead of a positional operator): of two racing changes one applies,
 * the other reads again. Taking a hold and giving it back are here too.
 */
import type { Types } from "mongoose";
import { isObjectId, Part, toPartView } from "./part.server";

export type HoldView = { quantity: number; backordered: number; shipped: number };

/** The order's holds on these parts, by part id. */
export async function holdsOfOrder(orderId: string, partIds: string[]) {
  const docs = await Part.find(
    { _id: { $in: partIds.filter(isObjectId) }, "holds.orderId": orderId },
    { holds: 1 },
  ).lean();
  const holds = new Map<string, HoldView>();
  for (const doc of docs) {
    const hold = doc.holds?.find((entry) => entry.orderId.toString() === orderId);
    if (hold)
      holds.set(doc._id.toString(), {
        quantity: hold.quantity,
        backordered: hold.backordered ?? 0,
        shipped: hold.shipped ?? 0,
      });
  }
  return holds;
}

export type Allocation = { orderId: string; partId: string; units: number; stillBackordered: number };

/**
 * Gives the part's available units to its backordered holds, oldest first, each allocation one
 * conditional update (available and the hold's backorder as read), until the stock or the
 * backorders run out. `skip` names orders that must not get stock (ended meanwhile). Returns what
 * went to whom.
 */
export async function allocateBackorders(partId: string, { skip = new Set<string>() } = {}) {
  const done: Allocation[] = [];
  if (!isObjectId(partId)) return done;
  for (let attempt = 0; attempt < 200; attempt++) {
    const doc = await Part.findById(partId, { availableQuantity: 1, holds: 1 }).lean();
    const available = doc?.availableQuantity ?? 0;
    if (!doc || available <= 0) break;
    const index = (doc.holds ?? []).findIndex(
      (hold) => (hold.backordered ?? 0) > 0 && !skip.has(hold.orderId.toString()),
    );
    if (index < 0) break;
    const hold = doc.holds![index];
    const units = Math.min(available, hold.backordered!);
    const result = await Part.updateOne(
      {
        _id: partId,
        availableQuantity: { $gte: units },
        [`holds.${index}.orderId`]: hold.orderId,
        [`holds.${index}.backordered`]: hold.backordered,
      },
      { $inc: { availableQuantity: -units, [`holds.${index}.backordered`]: -units } },
    );
    if (result.modifiedCount === 1)
      done.push({ orderId: hold.orderId.toString(), partId, units, stillBackordered: hold.backordered! - units });
  }
  return done;
}

/**
 * The units of a shipment leave the shop: the order's hold counts them shipped and onHand goes
 * down, once per shipment id (a second call changes nothing). False when the hold is gone (the
 * order was settled whole meanwhile, which shipped them) or does not hold that many on the shelf.
 */
export async function shipFromHold(partId: string, orderId: string, shipmentId: Types.ObjectId, quantity: number) {
  for (let attempt = 0; attempt < 20; attempt++) {
    const doc = await Part.findOne({ _id: partId, "holds.orderId": orderId }, { holds: 1 }).lean();
    const index = doc?.holds?.findIndex((hold) => hold.orderId.toString() === orderId) ?? -1;
    if (index < 0) return false;
    const hold = doc!.holds![index];
    if ((hold.shipments ?? []).some((id) => id.equals(shipmentId))) return true;
    const onShelf = hold.quantity - (hold.backordered ?? 0) - (hold.shipped ?? 0);
    if (quantity > onShelf) return false;
    const result = await Part.updateOne(
      {
        _id: partId,
        [`holds.${index}.orderId`]: hold.orderId,
        [`holds.${index}.shipped`]: sameOrMissing(hold.shipped),
        [`holds.${index}.shipments`]: { $ne: shipmentId },
      },
      {
        $inc: { onHand: -quantity, [`holds.${index}.shipped`]: quantity },
        $push: { [`holds.${index}.shipments`]: shipmentId },
      },
    );
    if (result.modifiedCount === 1) return true;
  }
  return false;
}

/** Parts with units waiting on backorder while some are available: the sweep allocates them. */
export async function listPartsToAllocate(limit = 200) {
  const docs = await Part.find({ "holds.backordered": { $gt: 0 }, availableQuantity: { $gt: 0 } }, { _id: 1 })
    .limit(limit)
    .lean();
  return docs.map((doc) => doc._id.toString());
}

/** Shop Today: the parts with units on backorder, how many units and orders wait, and when stock is expected. */
export async function listBackorderedParts(limit = 10) {
  const docs = await Part.find(
    { "holds.backordered": { $gt: 0 } },
    { partNumber: 1, name: 1, holds: 1, restockOn: 1, leadTimeDays: 1 },
  )
    .limit(limit)
    .lean();
  return docs.map((doc) => {
    const waiting = (doc.holds ?? []).filter((hold) => (hold.backordered ?? 0) > 0);
    return {
      id: doc._id.toString(),
      partNumber: doc.partNumber ?? "",
      name: doc.name ?? "",
      units: waiting.reduce((sum, hold) => sum + (hold.backordered ?? 0), 0),
      orders: waiting.length,
      restockOn: doc.restockOn ? doc.restockOn.toISOString().slice(0, 10) : null,
      leadTimeDays: doc.leadTimeDays ?? null,
    };
  });
}

/**
 * Units of a return received in good condition go back on the shelf: onHand and available rise
 * together, once per return (its id noted on the part in the same update; a second call changes
 * nothing). Returns whether the units were added now.
 */
export async function restockReturnedUnits(partId: string, returnId: Types.ObjectId, quantity: number) {
  if (!isObjectId(partId) || quantity <= 0) return false;
  const result = await Part.updateOne(
    { _id: partId, restockedReturns: { $ne: returnId } },
    { $inc: { onHand: quantity, availableQuantity: quantity }, $push: { restockedReturns: returnId } },
  );
  return result.modifiedCount === 1;
}

/**
 * Takes `quantity` units out of stock for an order, and notes the order's hold on the part, in one
 * conditional atomic update: it applies only while enough stock is left, the quantity still meets
 * the part's minimum, and the order holds none of this part yet (so a retry never takes twice).
 * A part that may be backordered takes what is on the shelf and notes the rest as backordered, in
 * the same kind of update on the stock as it was read. Returns the part as it was after the update
 * (its price is the one the order pays) and the units backordered, or null.
 */
export async function holdStock(partId: string, orderId: string, quantity: number) {
  if (!isObjectId(partId)) return null;
  for (let attempt = 0; attempt < 5; attempt++) {
    const doc = await Part.findOneAndUpdate(
      {
        _id: partId,
        availableQuantity: { $gte: quantity },
        minOrderQuantity: { $lte: quantity },
        "holds.orderId": { $ne: orderId },
      },
      { $inc: { availableQuantity: -quantity }, $push: { holds: { orderId, quantity } } },
      { returnDocument: "after", projection: { holds: 0 } },
    ).lean();
    if (doc) return { ...toPartView(doc), backordered: 0 };
    const now = await Part.findById(partId, { availableQuantity: 1, backorderable: 1 }).lean();
    if (!now?.backorderable || (now.availableQuantity ?? 0) >= quantity) {
      if (now && (now.availableQuantity ?? 0) >= quantity) continue; // restocked meanwhile: take it whole
      return null;
    }
    const shelf = now.availableQuantity ?? 0;
    const split = await Part.findOneAndUpdate(
      {
        _id: partId,
        backorderable: true,
        availableQuantity: shelf,
        minOrderQuantity: { $lte: quantity },
        "holds.orderId": { $ne: orderId },
      },
      {
        $inc: { availableQuantity: -shelf },
        $push: { holds: { orderId, quantity, backordered: quantity - shelf } },
      },
      { returnDocument: "after", projection: { holds: 0 } },
    ).lean();
    if (split) return { ...toPartView(split), backordered: quantity - shelf };
  }
  return null;
}

/** The ids of the parts among `partIds` on which the order holds stock. */
export async function partsHeldBy(orderId: string, partIds: string[]) {
  const docs = await Part.find(
    { _id: { $in: partIds.filter(isObjectId) }, "holds.orderId": orderId },
    { _id: 1 },
  ).lean();
  return new Set(docs.map((doc) => doc._id.toString()));
}

/**
 * Gives back the stock the order holds on these parts: per part, one conditional update that
 * pulls the hold and adds back the units it holds on the shelf (its quantity less what is
 * backordered and what was shipped), made on the hold as it was read, so it applies once however
 * many callers race (cancel, removal, expiry, the sweep, stock allocated to it meanwhile) and never
 * for a hold that was not taken. `ship` instead lets those units leave the shop (onHand goes down,
 * available stays). A deleted part gets nothing back. Returns the ids of the parts whose stock
 * rose (their backorders are allocated next: orders/backorders.server.ts).
 */
export async function releaseHolds(
  orderId: string,
  lines: { partId: string; quantity: number }[],
  { ship = false } = {},
) {
  const rose: string[] = [];
  for (const line of lines.filter((l) => isObjectId(l.partId))) {
    for (let attempt = 0; attempt < 20; attempt++) {
      const doc = await Part.findOne({ _id: line.partId, "holds.orderId": orderId }, { holds: 1 }).lean();
      const index = doc?.holds?.findIndex((hold) => hold.orderId.toString() === orderId) ?? -1;
      const hold = index >= 0 ? doc!.holds![index] : null;
      // The hold names its units; the line's quantity is the one it was taken with.
      if (!hold || hold.quantity !== line.quantity) break;
      const units = hold.quantity - (hold.backordered ?? 0) - (hold.shipped ?? 0);
      const result = await Part.updateOne(
        {
          _id: line.partId,
          [`holds.${index}.orderId`]: hold.orderId,
          [`holds.${index}.backordered`]: sameOrMissing(hold.backordered),
          [`holds.${index}.shipped`]: sameOrMissing(hold.shipped),
        },
        { $inc: ship ? { onHand: -units } : { availableQuantity: units }, $pull: { holds: { orderId } } },
      );
      if (result.modifiedCount === 1) {
        if (!ship && units > 0) rose.push(line.partId);
        break;
      }
    }
  }
  return rose;
}

/** A filter on a counter that may be missing on older holds (missing means 0). */
export const sameOrMissing = (value: number | null | undefined) => (value ? value : { $in: [0, null] });
