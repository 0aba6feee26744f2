import mongoose, { Schema } from "mongoose";
import { Order } from "./schema.server";
import { lineCondition } from "./subdocs/returns.server";
import { formatInvoiceNumber, invoicedWithoutNumber, invoiceNumbers } from "./invoice.server";
import { Part } from "~/models/part.server";
import { formatOrderNumber } from "~/domain/order-number";

/**
 * The stock check (npm run stock:check, and the stock job every few minutes for Shop Today). For
 * every part it checks the invariant the ordering steps keep (docs/behaviour.md, "Stock"):
 *   available + the units live orders hold on the shelf = on hand,
 * where a hold's units on the shelf are its quantity less those on backorder and those shipped.
 * Backorders add up too: a hold waits for no more than its line, the order never shows fewer
 * units waiting than its hold (allocation lowers the hold first), the units shipped match the
 * order's parcels, and no part has stock to give while a backorder waits (past the settle time).
 * where a live order is one not yet paid, or paid and not shipped, and "on hand" is the part's own
 * count of the units the shop has, changed only by restocks (admin edits, imports) and shipping.
 * It also checks that each hold noted on a part belongs to such an order, with the line's units,
 * and that each line of such an order holds its part's stock. Orders still being placed (younger
 * than the reserve deadline) are left out: their holds are on the way in or out.
 */

export type StockProblem = {
  partId: string;
  partNumber: string;
  name: string;
  kind:
    | "count"
    | "no-on-hand"
    | "hold-without-order"
    | "order-without-hold"
    | "hold-mismatch"
    | "backorder-mismatch"
    | "shipped-mismatch"
    | "unallocated"
    | "return-mismatch"
    | "return-not-restocked"
    | "credit-exceeds-charge"
    | "refund-exceeds-payment"
    | "credit-mismatch"
    | "credit-not-issued"
    | "invoice-number";
  message: string;
};

// Unpaid, awaiting approval, on account (shipped before it is paid), paid and not shipped: each holds its lines.
const HOLDING = ["reserving", "failed", "unpaid", "approval", "account", "paid"] as const;

export async function checkStock({
  settleMs,
}: {
  settleMs: number;
}): Promise<{ parts: number; problems: StockProblem[] }> {
  const young = new Date(Date.now() - settleMs);
  // What each live order's lines hold, by part then order: the figure the parts' holds must match.
  const expected = new Map<string, Map<string, number>>();
  // What each live order's line says is waiting and shipped (shipped: null while a parcel settles).
  const lineState = new Map<string, { backordered: number; shipped: number | null }>();
  const inFlight = new Set<string>();
  const orders = Order.find(
    { $or: [{ status: { $in: [...HOLDING] } }, { stockPending: { $in: ["release", "ship"] } }] },
    { status: 1, lines: 1, reserveBy: 1, stockPending: 1, updatedAt: 1, shipments: 1 },
  )
    .lean()
    .cursor({ batchSize: 500 });
  for await (const order of orders) {
    const id = order._id.toString();
    const placing = order.status === "reserving" || order.status === "failed";
    // Being placed, or ended (or shipped) a moment ago: its holds are on the way; the sweep settles any left.
    if ((placing && (order.reserveBy ?? new Date(0)) > new Date()) || (order.stockPending && order.updatedAt > young)) {
      inFlight.add(id);
      continue;
    }
    if (order.stockPending || placing) continue; // left half way past its time: the holds are reported below
    const parcelSettling = (order.shipments ?? []).some((shipment) => shipment.stockPending);
    for (const line of order.lines ?? []) {
      const part = line.partId.toString();
      lineState.set(`${part}|${id}`, {
        backordered: line.backorderedQuantity ?? 0,
        shipped: parcelSettling ? null : (line.shippedQuantity ?? 0),
      });
      const byOrder = expected.get(part) ?? new Map<string, number>();
      byOrder.set(id, (byOrder.get(id) ?? 0) + line.quantity);
      expected.set(part, byOrder);
    }
  }

  const problems: StockProblem[] = [];
  let count = 0;
  const parts = Part.find({}, { partNumber: 1, name: 1, availableQuantity: 1, onHand: 1, holds: 1, updatedAt: 1 })
    .sort({ partNumber: 1 })
    .lean()
    .cursor({ batchSize: 500 });
  for await (const part of parts) {
    count++;
    const partId = part._id.toString();
    const say = (kind: StockProblem["kind"], message: string) =>
      problems.push({ partId, partNumber: part.partNumber ?? "", name: part.name ?? "", kind, message });
    const wanted = expected.get(partId) ?? new Map<string, number>();
    expected.delete(partId);
    let heldByLive = 0;
    let waiting = 0;
    let heldInFlight = 0;
    const seen = new Set<string>();
    for (const hold of part.holds ?? []) {
      const orderId = hold.orderId.toString();
      seen.add(orderId);
      const backordered = hold.backordered ?? 0;
      const shipped = hold.shipped ?? 0;
      const onShelf = hold.quantity - backordered - shipped;
      if (inFlight.has(orderId)) {
        heldInFlight += onShelf;
        continue;
      }
      waiting += backordered;
      const line = lineState.get(`${partId}|${orderId}`);
      if (backordered < 0 || shipped < 0 || onShelf < 0)
        say(
          "backorder-mismatch",
          `holds ${hold.quantity} units for order ${orderId} with ${backordered} on backorder and ${shipped} shipped`,
        );
      else if (line && line.backordered < backordered)
        say(
          "backorder-mismatch",
          `order ${orderId} shows ${line.backordered} units on backorder, its hold ${backordered}`,
        );
      if (line && line.shipped !== null && line.shipped !== shipped)
        say("shipped-mismatch", `order ${orderId} shipped ${line.shipped} units, its hold counts ${shipped}`);
      const units = wanted.get(orderId);
      if (units === undefined)
        say("hold-without-order", `holds ${hold.quantity} units for order ${orderId}, which holds none`);
      else if (units !== hold.quantity)
        say("hold-mismatch", `holds ${hold.quantity} units for order ${orderId}, whose line has ${units}`);
      heldByLive += onShelf;
    }
    for (const [orderId, units] of wanted) {
      if (!seen.has(orderId))
        say("order-without-hold", `order ${orderId} has a line of ${units} units but no hold on the part`);
    }
    const available = part.availableQuantity ?? 0;
    if (waiting > 0 && available > 0 && (part.updatedAt ?? new Date(0)) <= young)
      say("unallocated", `has ${available} units available while ${waiting} units wait on backorder`);
    if (typeof part.onHand !== "number") {
      say("no-on-hand", "has no on-hand figure (run npm run migrate)");
    } else if (available + heldByLive + heldInFlight !== part.onHand) {
      const accounted = available + heldByLive + heldInFlight;
      const gap = part.onHand - accounted;
      say(
        "count",
        `available ${available} + held by orders ${heldByLive + heldInFlight} = ${accounted}, but ${part.onHand} on hand ` +
          `(${gap > 0 ? `${gap} units held for no one` : `${-gap} units counted twice`})`,
      );
    }
  }
  problems.push(...(await checkReturns(young)));
  problems.push(...(await checkCredits(young)));
  problems.push(...(await checkInvoiceNumbers(young)));
  // Lines of live orders whose part no longer exists hold nothing anywhere: not a stock problem.
  return { parts: count, problems };
}

/**
 * Returns add up: each line counts in returns the units of its returns not declined (what came
 * back, once received), never more than it shipped; and each return received back to stock is
 * noted on its parts (their stock rose by it once), unless it is still settling.
 */
async function checkReturns(young: Date) {
  const found: { partId: string; kind: StockProblem["kind"]; message: string }[] = [];
  const restocked = new Map<string, Set<string>>();
  const orders = Order.find({ "returns.0": { $exists: true } }, { lines: 1, returns: 1, status: 1, updatedAt: 1 })
    .lean()
    .cursor({ batchSize: 500 });
  for await (const order of orders) {
    const id = order._id.toString();
    const counted = new Map<number, number>();
    for (const entry of order.returns ?? []) {
      if (entry.status === "declined") continue;
      for (const line of entry.lines)
        counted.set(
          line.lineIndex,
          (counted.get(line.lineIndex) ?? 0) +
            (entry.status === "received" ? (line.receivedQuantity ?? 0) : line.quantity),
        );
      if (entry.status === "received" && !(entry.stockPending && order.updatedAt > young))
        for (const line of entry.lines)
          if ((line.receivedQuantity ?? 0) > 0 && lineCondition(entry, line) === "restock") {
            const ids = restocked.get(line.partId.toString()) ?? new Set<string>();
            ids.add(`${entry._id.toString()}|${id}`);
            restocked.set(line.partId.toString(), ids);
          }
    }
    for (const [index, line] of (order.lines ?? []).entries()) {
      const returned = line.returnedQuantity ?? 0;
      const shipped = order.status === "shipped" ? line.quantity : (line.shippedQuantity ?? 0);
      const expected = counted.get(index) ?? 0;
      if (returned !== expected || returned > shipped)
        found.push({
          partId: line.partId.toString(),
          kind: "return-mismatch",
          message: `order ${id} counts ${returned} units in returns of a line with ${expected} in its returns and ${shipped} shipped`,
        });
    }
  }
  if (restocked.size) {
    const parts = await Part.find({ _id: { $in: [...restocked.keys()] } }, { restockedReturns: 1 }).lean();
    const noted = new Map(
      parts.map((part) => [part._id.toString(), new Set((part.restockedReturns ?? []).map(String))]),
    );
    for (const [partId, entries] of restocked)
      for (const key of entries) {
        const [returnId, orderId] = key.split("|");
        if (noted.has(partId) && !noted.get(partId)!.has(returnId))
          found.push({
            partId,
            kind: "return-not-restocked",
            message: `return ${returnId} of order ${orderId} was received back to stock, but the part's stock never rose by it`,
          });
      }
  }
  if (!found.length) return [];
  const names = await Part.find(
    { _id: { $in: found.map((problem) => problem.partId) } },
    { partNumber: 1, name: 1 },
  ).lean();
  const byId = new Map(names.map((part) => [part._id.toString(), part]));
  return found.map((problem) => ({
    ...problem,
    partNumber: byId.get(problem.partId)?.partNumber ?? "",
    name: byId.get(problem.partId)?.name ?? "",
  }));
}

/**
 * Credits add up (the money side of returns): no line is credited more units or more money than it was
 * charged, no tax line more than its tax, the order's credited sum is its credit notes', card refunds
 * stay within what the card paid, every credit note number is used once, and every return received and
 * every paid order cancelled has its credit note (unless it is still settling).
 */
async function checkCredits(young: Date) {
  const found: StockProblem[] = [];
  const numbers = new Map<number, string>();
  const orders = Order.find(
    { $or: [{ "creditNotes.0": { $exists: true } }, { creditPending: true }, { "returns.creditPending": true }] },
    {
      number: 1,
      lines: 1,
      taxLines: 1,
      totalCents: 1,
      paidCents: 1,
      transactionId: 1,
      payments: 1,
      creditNotes: 1,
      creditedCents: 1,
      creditPending: 1,
      returns: 1,
      updatedAt: 1,
    },
  )
    .lean()
    .cursor({ batchSize: 500 });
  for await (const order of orders) {
    const name = `order ${order.number ? formatOrderNumber(order.number) : order._id.toString()}`;
    const say = (kind: StockProblem["kind"], message: string) =>
      found.push({ partId: "", partNumber: "", name, kind, message });
    const notes = order.creditNotes ?? [];
    const units = new Map<number, number>();
    const money = new Map<number, number>();
    const tax = new Map<number, number>();
    let sum = 0;
    let refunds = 0;
    for (const note of notes) {
      if (note.number) {
        const other = numbers.get(note.number);
        if (other) say("credit-mismatch", `credit note number ${note.number} is used twice (also by ${other})`);
        numbers.set(note.number, name);
      } else if (order.updatedAt <= young) say("credit-not-issued", "has a credit note without its number");
      for (const line of note.lines) {
        units.set(line.lineIndex, (units.get(line.lineIndex) ?? 0) + line.quantity);
        money.set(line.lineIndex, (money.get(line.lineIndex) ?? 0) + line.netCents);
      }
      for (const [index, line] of (note.taxLines ?? []).entries())
        tax.set(index, (tax.get(index) ?? 0) + line.amountCents);
      sum += note.totalCents;
      if (note.refund && note.refund.status !== "failed" && note.refund.status !== "canceled")
        refunds += note.refundCents;
      if (note.refundCents + note.appliedCents + note.accountCreditCents !== note.totalCents)
        say(
          "credit-mismatch",
          `credit note ${note.number} settles ${note.refundCents + note.appliedCents + note.accountCreditCents} cents of ${note.totalCents}`,
        );
    }
    for (const [index, line] of (order.lines ?? []).entries()) {
      if ((units.get(index) ?? 0) > line.quantity || (money.get(index) ?? 0) > line.lineTotalCents)
        say(
          "credit-exceeds-charge",
          `line ${index + 1} is credited ${units.get(index)} units for ${money.get(index)} cents, but charged ${line.quantity} units for ${line.lineTotalCents} cents`,
        );
    }
    for (const [index, line] of (order.taxLines ?? []).entries())
      if ((tax.get(index) ?? 0) > line.amountCents)
        say(
          "credit-exceeds-charge",
          `${line.label} is credited ${tax.get(index)} cents of ${line.amountCents} charged`,
        );
    if (sum > (order.totalCents ?? 0))
      say("credit-exceeds-charge", `credited ${sum} cents of a ${order.totalCents} cent order`);
    if (sum !== (order.creditedCents ?? 0))
      say("credit-mismatch", `its credit notes add up to ${sum} cents, the order says ${order.creditedCents ?? 0}`);
    const recorded = (order.payments ?? []).filter((p) => !p.reversedAt).reduce((total, p) => total + p.amountCents, 0);
    const card = order.transactionId ? Math.max(0, (order.paidCents ?? 0) - recorded) : 0;
    if (refunds > card) say("refund-exceeds-payment", `refunds ${refunds} cents to a card that paid ${card}`);
    const settled = order.updatedAt <= young;
    if (settled && order.creditPending) say("credit-not-issued", "was cancelled after payment, and has no credit note");
    for (const entry of order.returns ?? [])
      if (settled && entry.creditPending)
        say("credit-not-issued", `return ${entry._id.toString()} was received, and has no credit note`);
  }
  return found;
}

/**
 * Invoice numbers are issued once each, with no gap: every number claimed from 1 up is carried by the
 * order that claimed it, and every invoiced order has one (unless it is still settling).
 */
async function checkInvoiceNumbers(young: Date) {
  const found: StockProblem[] = [];
  const say = (name: string, message: string) =>
    found.push({ partId: "", partNumber: "", name, kind: "invoice-number", message });
  for (const order of await invoicedWithoutNumber({ graceMs: Date.now() - young.getTime() }))
    say(`order ${order.number ? formatOrderNumber(order.number) : order.id}`, "is invoiced, and has no invoice number");
  const carried = new Map(
    (await Order.find({ invoiceNumber: { $exists: true } }, { invoiceNumber: 1, updatedAt: 1 }).lean()).map((order) => [
      order._id.toString(),
      order,
    ]),
  );
  for (const [index, claim] of (await invoiceNumbers.claimed()).entries()) {
    const invoice = formatInvoiceNumber(claim._id);
    if (claim._id !== index + 1) {
      say(invoice, `follows ${index ? formatInvoiceNumber(index) : "nothing"}: the numbers between are missing`);
      break;
    }
    const order = carried.get(claim.owner);
    if (order && order.invoiceNumber !== claim._id)
      say(invoice, `was claimed by an order that carries ${formatInvoiceNumber(order.invoiceNumber!)}`);
    else if (!order && (await Order.exists({ _id: claim.owner, updatedAt: { $lte: young } })))
      say(invoice, "was claimed by an order that does not carry it");
  }
  return found;
}

/** The last check's result, for Shop Today (one document, rewritten by each run). */
const stockCheckSchema = new Schema({
  _id: { type: String, required: true },
  at: { type: Date, required: true },
  parts: { type: Number, required: true },
  problemCount: { type: Number, required: true },
  /** The first few problems, as the check said them. */
  problems: { type: [{ partNumber: String, name: String, message: String, _id: false }], default: [] },
});

const StockCheck =
  (mongoose.models.StockCheck as mongoose.Model<mongoose.InferSchemaType<typeof stockCheckSchema>>) ??
  mongoose.model("StockCheck", stockCheckSchema, "stock_checks");

export async function saveStockCheck(result: { parts: number; problems: StockProblem[] }) {
  await StockCheck.updateOne(
    { _id: "latest" },
    {
      $set: {
        at: new Date(),
        parts: result.parts,
        problemCount: result.problems.length,
        problems: result.problems.slice(0, 10).map(({ partNumber, name, message }) => ({ partNumber, name, message })),
      },
    },
    { upsert: true },
  );
}

export async function getLatestStockCheck() {
  const doc = await StockCheck.findById("latest").lean();
  if (!doc) return null;
  return {
    at: doc.at.toISOString(),
    parts: doc.parts,
    problemCount: doc.problemCount,
    problems: (doc.problems ?? []).map((p) => ({
      partNumber: p.partNumber ?? "",
      name: p.name ?? "",
      message: p.message ?? "",
    })),
  };
}
