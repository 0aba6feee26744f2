/**
 * Returns (RMA) on the order: asked for by the customer, approved or declined by staff, then
 * received. Each change is one update of the order conditional on what was read (the count of
 * returns, or the return's status), so of two racing changes one applies and the other is told.
 * Each line received has its own condition; units back to stock reach the part afterwards, once per
 * return (settleReturnStock).
 */
import mongoose from "mongoose";
import {
  DEFAULT_RETURN_CONDITION,
  lineNotInReturn,
  RMA_NUMBER_BASE,
  type ReturnCondition,
  type ReturnReason,
} from "~/domain/returns";
import { nextInSequence } from "~/models/counter.server";
import { isObjectId } from "~/models/part.server";
import { modelSettings } from "~/models/settings.server";
import { restockReturnedUnits, sameOrMissing } from "~/models/stock-holds.server";
import { DAY_MS, Order } from "./schema.server";
import { toOrderView, type OrderView } from "./view.server";
import { lineCondition } from "./subdocs/returns.server";
import { formatQuantity } from "~/format";

/** The return window in whole days, as people read it. */
export const returnWindowDays = () => Math.round(modelSettings().returnWindowMs / DAY_MS);

/**
 * What each line may still be returned: its units shipped less those already in a return, and no
 * more than left in parcels shipped within the return window.
 */
export function returnableUnits(order: OrderView, now = Date.now()) {
  const since = now - modelSettings().returnWindowMs;
  return order.lines.map((line, lineIndex) => {
    const inWindow = order.shipments
      .filter((parcel) => Date.parse(parcel.shippedAt) >= since)
      .reduce(
        (sum, parcel) =>
          sum + parcel.lines.filter((l) => l.lineIndex === lineIndex).reduce((s, l) => s + l.quantity, 0),
        0,
      );
    return Math.max(0, Math.min(line.shippedQuantity - line.returnedQuantity, inWindow));
  });
}

export type ReturnRequest = {
  lines: { lineIndex: number; quantity: number }[];
  reason: ReturnReason;
  note: string;
  requestedBy: string;
  requestedByName: string;
};

type Refusal =
  | { outcome: "not_found" }
  | { outcome: "refused"; order: OrderView; message: string; lineIndex?: number }
  | { outcome: "changed"; order: OrderView };

/** Records a return asked for. Refused (nothing written) beyond what each line may return, or when another return was asked for since the order was read. */
export async function requestReturn(
  orderId: string,
  input: ReturnRequest,
): Promise<{ outcome: "requested"; order: OrderView; returnId: string } | Refusal> {
  if (!isObjectId(orderId)) return { outcome: "not_found" };
  const doc = await Order.findById(orderId).lean();
  if (!doc) return { outcome: "not_found" };
  const order = toOrderView(doc);
  const returnable = returnableUnits(order);
  const lines: { lineIndex: number; partId: mongoose.Types.ObjectId; quantity: number }[] = [];
  for (const { lineIndex, quantity } of input.lines) {
    const line = order.lines[lineIndex];
    if (!line) return { outcome: "refused", order, message: "That line is not on this order." };
    if (quantity === 0) continue;
    const left = returnable[lineIndex];
    if (quantity > left) {
      const message =
        line.shippedQuantity === 0
          ? `No units of ${line.productName} have shipped yet`
          : left === 0 && line.shippedQuantity > line.returnedQuantity
            ? `${line.productName} shipped more than ${returnWindowDays()} days ago: the return window has passed`
            : `At most ${formatQuantity(left)} units of ${line.productName} can be returned (${formatQuantity(line.shippedQuantity)} shipped, ${formatQuantity(line.returnedQuantity)} already in a return)`;
      return { outcome: "refused", order, lineIndex, message };
    }
    lines.push({ lineIndex, partId: new mongoose.Types.ObjectId(line.partId), quantity });
  }
  if (!lines.length) {
    const message = returnable.some((n) => n > 0)
      ? "Choose how many units of at least one line to return"
      : `Nothing on ${order.number} can be returned: nothing shipped within the last ${returnWindowDays()} days is left to return`;
    return { outcome: "refused", order, message };
  }
  const returnId = new mongoose.Types.ObjectId();
  const updated = await Order.findOneAndUpdate(
    { _id: orderId, returnCount: sameOrMissing(doc.returnCount), status: doc.status },
    {
      $inc: {
        returnCount: 1,
        ...Object.fromEntries(lines.map((line) => [`lines.${line.lineIndex}.returnedQuantity`, line.quantity])),
      },
      $push: {
        returns: {
          _id: returnId,
          status: "requested",
          reason: input.reason,
          note: input.note,
          lines,
          requestedAt: new Date(),
          requestedBy: new mongoose.Types.ObjectId(input.requestedBy),
          requestedByName: input.requestedByName,
        },
      },
      $addToSet: { eventsPending: "return" },
    },
    { returnDocument: "after" },
  ).lean();
  if (!updated) return { outcome: "changed", order };
  return { outcome: "requested", order: toOrderView(updated), returnId: returnId.toString() };
}

/** The order and the place of one of its returns, read for a change conditional on its status. */
async function readReturn(orderId: string, returnId: string) {
  if (!isObjectId(orderId) || !isObjectId(returnId)) return null;
  const doc = await Order.findById(orderId).lean();
  const index = doc?.returns?.findIndex((entry) => entry._id.toString() === returnId) ?? -1;
  if (!doc || index < 0) return null;
  return { doc, index, entry: doc.returns![index], order: toOrderView(doc) };
}

export type Decision = { approve: true } | { approve: false; reason: string };

/** Approves (numbering it RMA-…) or declines (its units may be returned again) a return asked for. */
export async function decideReturn(
  orderId: string,
  returnId: string,
  decision: Decision,
  decidedBy: string,
): Promise<{ outcome: "decided"; order: OrderView } | Refusal> {
  const found = await readReturn(orderId, returnId);
  if (!found) return { outcome: "not_found" };
  const { index, entry, order } = found;
  if (entry.status !== "requested") {
    const view = order.returns[index];
    return {
      outcome: "refused",
      order,
      message: `This return was already ${view.status}${view.decidedBy ? ` by ${view.decidedBy}` : ""}`,
    };
  }
  const at = `returns.${index}`;
  const set = decision.approve
    ? { [`${at}.status`]: "approved", [`${at}.number`]: RMA_NUMBER_BASE + (await nextInSequence("rma")) }
    : { [`${at}.status`]: "declined", [`${at}.declineReason`]: decision.reason };
  const updated = await Order.findOneAndUpdate(
    { _id: orderId, [`${at}._id`]: entry._id, [`${at}.status`]: "requested" },
    {
      $set: { ...set, [`${at}.decidedAt`]: new Date(), [`${at}.decidedBy`]: decidedBy },
      ...(decision.approve
        ? {}
        : {
            $inc: Object.fromEntries(
              entry.lines.map((line) => [`lines.${line.lineIndex}.returnedQuantity`, -line.quantity]),
            ),
          }),
      $addToSet: { eventsPending: "return" },
    },
    { returnDocument: "after" },
  ).lean();
  if (!updated) return { outcome: "changed", order };
  return { outcome: "decided", order: toOrderView(updated) };
}

/**
 * What came back, per return line: the units and their condition. A line without a condition takes
 * the receipt's, else the one its return's reason starts at (DEFAULT_RETURN_CONDITION).
 */
export type Receipt = { lines: { quantity: number; condition?: ReturnCondition }[]; condition?: ReturnCondition };

/**
 * Records what came back of an approved return (per return line, at most what was approved) and
 * each line's condition. Units that did not come back may be returned again. Lines back to stock
 * reach the part at once (settleReturnStock); returns the parts whose stock rose.
 */
export async function receiveReturn(
  orderId: string,
  returnId: string,
  receipt: Receipt,
  receivedBy: string,
): Promise<{ outcome: "received"; order: OrderView; restockedPartIds: string[] } | Refusal> {
  const found = await readReturn(orderId, returnId);
  if (!found) return { outcome: "not_found" };
  const { index, entry, order } = found;
  if (entry.status !== "approved") {
    const message =
      entry.status === "received"
        ? "This return was already received"
        : entry.status === "declined"
          ? "This return was declined: there is nothing to receive"
          : "Approve the return before receiving it";
    return { outcome: "refused", order, message };
  }
  if (receipt.lines.length > entry.lines.length)
    return { outcome: "refused", order, message: lineNotInReturn(entry.lines.length, receipt.lines.length) };
  for (const [lineIndex, line] of entry.lines.entries()) {
    const got = receipt.lines[lineIndex]?.quantity ?? 0;
    if (got > line.quantity) {
      const name = order.lines[line.lineIndex]?.productName ?? "that part";
      return {
        outcome: "refused",
        order,
        lineIndex,
        message: `At most ${formatQuantity(line.quantity)} units of ${name} were approved for return`,
      };
    }
  }
  const received = entry.lines.map((_, lineIndex) => receipt.lines[lineIndex]?.quantity ?? 0);
  if (received.every((n) => n === 0))
    return { outcome: "refused", order, message: "Enter the units that came back (at least one)" };
  const at = `returns.${index}`;
  const conditions = entry.lines.map(
    (_, lineIndex) =>
      receipt.lines[lineIndex]?.condition ??
      receipt.condition ??
      DEFAULT_RETURN_CONDITION[entry.reason as ReturnReason],
  );
  const restock = conditions.some((condition, lineIndex) => condition === "restock" && received[lineIndex] > 0);
  const notBack = entry.lines
    .map(
      (line, lineIndex) => [`lines.${line.lineIndex}.returnedQuantity`, received[lineIndex] - line.quantity] as const,
    )
    .filter(([, less]) => less < 0);
  const updated = await Order.findOneAndUpdate(
    { _id: orderId, [`${at}._id`]: entry._id, [`${at}.status`]: "approved" },
    {
      $set: {
        [`${at}.status`]: "received",
        [`${at}.receivedAt`]: new Date(),
        [`${at}.receivedBy`]: receivedBy,
        ...Object.fromEntries(received.map((n, lineIndex) => [`${at}.lines.${lineIndex}.receivedQuantity`, n])),
        ...Object.fromEntries(conditions.map((c, lineIndex) => [`${at}.lines.${lineIndex}.condition`, c])),
        ...(restock ? { [`${at}.stockPending`]: true } : {}),
        // Its credit note is issued next (credit-notes.server.ts); a crash leaves this for the sweep.
        [`${at}.creditPending`]: true,
      },
      ...(notBack.length ? { $inc: Object.fromEntries(notBack) } : {}),
      $addToSet: { eventsPending: "return" },
    },
    { returnDocument: "after" },
  ).lean();
  if (!updated) return { outcome: "changed", order };
  const restockedPartIds = restock ? await settleReturnStock(orderId) : [];
  const after = toOrderView((await Order.findById(orderId).lean()) ?? updated);
  return { outcome: "received", order: after, restockedPartIds };
}

/**
 * Units of every received return still pending go back on their parts' shelves (once per return),
 * then the return's note comes off. Safe to run again: the stock sweep does after a crash.
 * Returns the parts whose stock rose.
 */
export async function settleReturnStock(orderId: string) {
  const doc = await Order.findById(orderId, { returns: 1 }).lean();
  const parts: string[] = [];
  for (const [index, entry] of (doc?.returns ?? []).entries()) {
    if (!entry.stockPending) continue;
    const byPart = new Map<string, number>();
    for (const line of entry.lines) {
      if (lineCondition(entry, line) !== "restock") continue;
      byPart.set(line.partId.toString(), (byPart.get(line.partId.toString()) ?? 0) + (line.receivedQuantity ?? 0));
    }
    for (const [partId, quantity] of byPart) {
      await restockReturnedUnits(partId, entry._id, quantity);
      parts.push(partId);
    }
    await Order.updateOne(
      { _id: orderId, [`returns.${index}._id`]: entry._id },
      { $unset: { [`returns.${index}.stockPending`]: "" } },
    );
  }
  return parts;
}

/** Orders with a received return whose restocked units a crash left off the shelf for `graceMs`: settled now. */
export async function settleLeftReturns({ graceMs, limit = 200 }: { graceMs: number; limit?: number }) {
  const docs = await Order.find(
    { "returns.stockPending": true, updatedAt: { $lte: new Date(Date.now() - graceMs) } },
    { _id: 1 },
  )
    .limit(limit)
    .lean();
  const parts: string[] = [];
  for (const doc of docs) parts.push(...(await settleReturnStock(doc._id.toString())));
  return parts;
}

/** Shop Today: returns approved and waiting for their parts, and those waiting for a decision, oldest first. */
export async function listOpenReturns(limit = 10) {
  const docs = await Order.find({ "returns.status": { $in: ["requested", "approved"] } })
    .sort({ updatedAt: 1 })
    .limit(limit)
    .lean();
  return docs.flatMap((doc) => {
    const order = toOrderView(doc);
    return order.returns
      .filter((entry) => entry.status === "requested" || entry.status === "approved")
      .map((entry) => ({
        order: { id: order.id, number: order.number, companyName: order.companyName, userName: order.userName },
        entry,
      }));
  });
}
