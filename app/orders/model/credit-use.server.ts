/**
 * Account credit taken off an order, as stored: the credit a company's notes still hold, the claim
 * on a note (one update conditional on what it has given so far), the use recorded on the order
 * (one update conditional on what the order had), and the note's credit given back when the order
 * ended unpaid or never took it. No transactions: each is one atomic update, and the credit sweep
 * gives back what a crash left claimed but not taken (orders/credit-apply.server.ts).
 */
import mongoose from "mongoose";
import { creditHeldCents } from "~/domain/credit-notes";
import { HOME_CURRENCY, type Currency } from "~/domain/money";
import { isObjectId } from "~/models/part.server";
import { Order } from "./schema.server";
import { toOrderView, type OrderView } from "./view.server";

const oid = (id: string) => new mongoose.Types.ObjectId(id);

/** A credit note with credit the account still holds: where it is and what it holds. */
export type HeldCredit = {
  orderId: string;
  noteIndex: number;
  noteId: string;
  number: string;
  issuedAt: string;
  heldCents: number;
  usedCents: number;
  refundStatus: string | null;
};

/**
 * The company's credit notes that hold credit, oldest first: the credit that comes off its invoices.
 * With `currency`, only the notes of orders in it: credit comes off an invoice of its own currency only.
 */
export async function creditHeldBy(companyId: string, currency?: Currency): Promise<HeldCredit[]> {
  if (!isObjectId(companyId)) return [];
  // Orders kept before currencies were data are dollar orders.
  const inCurrency = currency ? { currency: currency === HOME_CURRENCY ? { $in: [currency, null] } : currency } : {};
  const docs = await Order.find({
    companyId: oid(companyId),
    "creditNotes.0": { $exists: true },
    ...inCurrency,
  }).lean();
  return docs
    .flatMap((doc) =>
      toOrderView(doc).creditNotes.map((note, noteIndex) => ({
        orderId: doc._id.toString(),
        noteIndex,
        noteId: note.id,
        number: note.number,
        issuedAt: note.issuedAt,
        heldCents: note.number.startsWith("CN-") ? creditHeldCents(note) : 0,
        usedCents: note.usedCents,
        refundStatus: note.refund?.status ?? null,
      })),
    )
    .filter((note) => note.heldCents > 0)
    .sort((a, b) => a.issuedAt.localeCompare(b.issuedAt) || a.noteId.localeCompare(b.noteId));
}

/** Claims `amountCents` of the note's credit for an order: false when the note changed since it was read. */
export async function claimNoteCredit(note: HeldCredit, use: { id: string; orderId: string; amountCents: number }) {
  const at = `creditNotes.${note.noteIndex}`;
  const result = await Order.updateOne(
    {
      _id: oid(note.orderId),
      [`${at}._id`]: oid(note.noteId),
      [`${at}.payout`]: null,
      [`${at}.usedCents`]: note.usedCents ? note.usedCents : { $in: [0, null] },
      // A refund's news changes what the note holds: read again then.
      [`${at}.refund.status`]: note.refundStatus,
    },
    {
      $set: { [`${at}.usedCents`]: note.usedCents + use.amountCents },
      $push: {
        [`${at}.uses`]: {
          _id: oid(use.id),
          orderId: oid(use.orderId),
          amountCents: use.amountCents,
          at: new Date(),
          pending: true,
        },
      },
    },
  );
  return result.modifiedCount === 1;
}

/** Gives a use's credit back to its note (once: a second call finds the use gone). */
export async function giveBackNoteCredit(noteOrderId: string, noteId: string, useId: string) {
  const place = await placeOfUse(noteOrderId, noteId, useId);
  if (!place) return false;
  const at = `creditNotes.${place.noteIndex}`;
  const result = await Order.updateOne(
    { _id: place.doc._id, [`${at}._id`]: oid(noteId), [`${at}.uses._id`]: oid(useId) },
    { $pull: { [`${at}.uses`]: { _id: oid(useId) } }, $inc: { [`${at}.usedCents`]: -place.use.amountCents } },
  );
  return result.modifiedCount === 1;
}

/** The statuses credit comes off: an unpaid card or bank-transfer order, an open invoice on account. */
const OPEN_FOR_CREDIT = ["unpaid", "account", "shipped"];

/** Whether credit can come off this order now, and how much at most. */
export function openForCredit(order: OrderView) {
  if (!OPEN_FOR_CREDIT.includes(order.status) || order.paidAt) return 0;
  return order.balanceCents;
}

export type TakeOutcome = { outcome: "taken"; order: OrderView; paidInFull: boolean } | { outcome: "changed" };

/**
 * Takes a claimed use of credit off the order, in one update conditional on the money it had when
 * read: paid in full when the credit covers what was left (its invoice then follows, as for money
 * received). An unpaid card order is then charged only what is left.
 */
export async function takeCreditOff(
  order: OrderView,
  use: { id: string; noteId: string; noteOrderId: string; noteNumber: string; amountCents: number; by: string | null },
): Promise<TakeOutcome> {
  if (use.amountCents > openForCredit(order)) return { outcome: "changed" };
  const applied = order.creditAppliedCents + use.amountCents;
  const paidInFull = order.paidCents + order.creditedCents + applied >= order.totalCents;
  const now = new Date();
  const doc = await Order.findOneAndUpdate(
    {
      _id: oid(order.id),
      status: order.status,
      paidAt: null,
      paidCents: order.paidCents ? order.paidCents : { $in: [0, null] },
      creditAppliedCents: order.creditAppliedCents ? order.creditAppliedCents : { $in: [0, null] },
      creditedCents: order.creditedCents ? order.creditedCents : { $in: [0, null] },
    },
    {
      $push: {
        creditUses: {
          _id: oid(use.id),
          noteId: oid(use.noteId),
          noteOrderId: oid(use.noteOrderId),
          noteNumber: use.noteNumber,
          amountCents: use.amountCents,
          at: now,
          by: use.by ?? undefined,
        },
      },
      $set: {
        creditAppliedCents: applied,
        ...(order.status === "unpaid" ? { chargeCents: Math.max(0, order.totalCents - applied) } : {}),
        ...(paidInFull
          ? {
              paidAt: now,
              status: order.status === "shipped" ? "shipped" : "paid",
              ...(order.invoiceNumber ? {} : { invoicePending: true }),
            }
          : {}),
      },
      $addToSet: { eventsPending: { $each: paidInFull ? ["credit-applied", "paid"] : ["credit-applied"] } },
    },
    { returnDocument: "after" },
  ).lean();
  return doc ? { outcome: "taken", order: toOrderView(doc), paidInFull } : { outcome: "changed" };
}

/** The company's open invoices on account that credit comes off, oldest first. */
export async function openInvoicesOf(companyId: string, limit = 50) {
  if (!isObjectId(companyId)) return [];
  const docs = await Order.find({
    companyId: oid(companyId),
    status: { $in: ["account", "shipped"] },
    dueAt: { $exists: true },
    paidAt: null,
  })
    .sort({ createdAt: 1, _id: 1 })
    .limit(limit)
    .lean();
  return docs.map(toOrderView).filter((order) => openForCredit(order) > 0);
}

/** Where a use sits on its note (the note's and the use's place in their lists), or null when it is gone. */
async function placeOfUse(noteOrderId: string, noteId: string, useId: string) {
  const doc = await Order.findById(noteOrderId, { creditNotes: 1 }).lean();
  const noteIndex = (doc?.creditNotes ?? []).findIndex((note) => note._id.toString() === noteId);
  if (!doc || noteIndex < 0) return null;
  const uses = doc.creditNotes![noteIndex].uses ?? [];
  const useIndex = uses.findIndex((each) => each._id.toString() === useId);
  return useIndex < 0 ? null : { doc, noteIndex, useIndex, use: uses[useIndex] };
}

/** The order took the claimed credit: the claim is no longer the sweep's to check. */
export async function confirmNoteUse(noteOrderId: string, noteId: string, useId: string) {
  const place = await placeOfUse(noteOrderId, noteId, useId);
  if (!place) return;
  const at = `creditNotes.${place.noteIndex}.uses.${place.useIndex}`;
  await Order.updateOne({ _id: place.doc._id, [`${at}._id`]: oid(useId) }, { $unset: { [`${at}.pending`]: "" } });
}

/** Claims still pending since before `before`: a crash may have left them untaken. */
export async function pendingNoteUses(before: Date, limit = 200) {
  const docs = await Order.find({ "creditNotes.uses.pending": true }, { creditNotes: 1 }).limit(limit).lean();
  return docs.flatMap((doc) =>
    (doc.creditNotes ?? []).flatMap((note) =>
      (note.uses ?? [])
        .filter((use) => use.pending && use.at < before)
        .map((use) => ({
          noteOrderId: doc._id.toString(),
          noteId: note._id.toString(),
          useId: use._id.toString(),
          orderId: use.orderId.toString(),
        })),
    ),
  );
}

/** Whether the order holds this use of credit now (an order that ended unpaid holds none). */
export async function orderHoldsUse(orderId: string, useId: string) {
  const doc = await Order.findById(orderId).lean();
  return Boolean(doc && toOrderView(doc).creditUses.some((use) => use.id === useId));
}

/** The uses of credit an order took, as stored (also on an order that ended, whose view shows none). */
export async function storedUsesOf(orderId: string) {
  const doc = await Order.findById(orderId, { creditUses: 1 }).lean();
  return (doc?.creditUses ?? []).map((use) => ({
    useId: use._id.toString(),
    noteId: use.noteId.toString(),
    noteOrderId: use.noteOrderId.toString(),
  }));
}

/** An unpaid order that ended gives each use of credit back to its note (once; safe to run again). */
export async function giveBackCreditOf(orderId: string) {
  for (const use of await storedUsesOf(orderId)) await giveBackNoteCredit(use.noteOrderId, use.noteId, use.useId);
}

/**
 * The check of credit taken off orders across documents: every use an order holds is on the credit
 * note it names, and every use a note gave (its claim settled) is held by the order it names; a use
 * an order that ended unpaid still names is one it gave back (the note no longer has it).
 */
export async function creditUseProblems() {
  const problems: { orderId: string; orderNumber: string; message: string }[] = [];
  const [takers, givers] = await Promise.all([
    Order.find({ "creditUses.0": { $exists: true } }).lean(),
    Order.find({ "creditNotes.uses.0": { $exists: true } }, { creditNotes: 1, number: 1 }).lean(),
  ]);
  const given = new Map<string, { noteId: string; orderId: string; amountCents: number; pending: boolean }>();
  for (const doc of givers)
    for (const note of doc.creditNotes ?? [])
      for (const use of note.uses ?? [])
        given.set(use._id.toString(), {
          noteId: note._id.toString(),
          orderId: use.orderId.toString(),
          amountCents: use.amountCents,
          pending: Boolean(use.pending),
        });
  const held = new Set<string>();
  for (const doc of takers) {
    const order = toOrderView(doc);
    for (const use of order.creditUses) {
      held.add(use.id);
      const on = given.get(use.id);
      if (!on || on.noteId !== use.noteId || on.amountCents !== use.amountCents)
        problems.push({
          orderId: order.id,
          orderNumber: order.number,
          message: `credit ${use.id} of ${use.noteNumber}: ${use.amountCents} cents taken, the credit note does not give it`,
        });
    }
  }
  for (const [useId, use] of given)
    if (!use.pending && !held.has(useId))
      problems.push({
        orderId: use.orderId,
        orderNumber: "",
        message: `credit ${useId}: ${use.amountCents} cents given by its credit note, not held by the order`,
      });
  return problems;
}
