/**
 * The demo's account money on first start, so the statement, Shop Today's credit to pay out and the
 * documents show each case: Casey's account in credit (a paid order the shop cancelled, its credit
 * note on his account), credit applied to a later order (its invoice says "Account credit CN-…",
 * the rest paid by bank transfer), a credit paid out to his bank, and Taylor's invoice 45 days
 * overdue (the statement's 31-60 bucket). Written straight to the database as the other demo
 * orders are (a seed, not a sale: stock is not taken), through the order model's own updates for
 * the credit notes, the credit taken off and the payout.
 */
import mongoose from "mongoose";
import { formatAddress, type PostalAddress } from "~/domain/address";
import { taxLinesFor, taxPlaceFor, taxTotal } from "~/domain/tax";
import { Part } from "~/models/part.server";
import { User } from "~/models/user.server";
import { recordPayout } from "~/orders/model/account-credit.server";
import { issueCreditNote } from "~/orders/model/credit-notes.server";
import { claimNoteCredit, confirmNoteUse, creditHeldBy, takeCreditOff } from "~/orders/model/credit-use.server";
import { assignInvoiceNumber } from "~/orders/model/invoice.server";
import { getOrderById } from "~/orders/model/reads.server";
import { Order } from "~/orders/model/schema.server";
import { CASEY_HOME, NORTHSIDE_DOCK } from "./content.server";
import { orderLine } from "./orders.server";

const DAY_MS = 24 * 60 * 60 * 1000;
/** The PO numbers that mark the demo's account money as written (added once). */
const MARK = "CREDIT-DEMO";

export async function ensureDemoAccountMoney(now: number, caseyEmail: string, taylorEmail: string, staff: string) {
  const [casey, taylor] = await Promise.all([
    User.findOne({ email: caseyEmail }).lean(),
    User.findOne({ email: taylorEmail }).lean(),
  ]);
  if (!casey?.companyId || !taylor?.companyId || (await Order.exists({ poNumber: { $regex: `^${MARK}` } }))) return;
  const parts = new Map(
    (await Part.find({ partNumber: { $in: ["PW-1002", "PW-1005", "PW-1006", "PW-1008"] } }).lean()).map((part) => [
      part.partNumber,
      part,
    ]),
  );
  if (parts.size < 4) return;
  const at = (daysAgo: number) => new Date(now - daysAgo * DAY_MS);
  const day = (daysAgo: number) => new Date(new Date(at(daysAgo)).setUTCHours(0, 0, 0, 0));

  /** An order as placed `placed` days ago, with its money and status fields. */
  async function seed(
    user: typeof casey,
    delivery: PostalAddress,
    partNumber: string,
    quantity: number,
    placed: number,
    po: string,
    fields: (totalCents: number) => Record<string, unknown>,
  ) {
    const line = orderLine(parts.get(partNumber)!, quantity);
    const taxLines = taxLinesFor(null, line.lineTotalCents, taxPlaceFor(null, delivery));
    const totalCents = line.lineTotalCents + taxTotal(taxLines);
    const doc = await Order.create({
      lines: [line],
      netCents: line.lineTotalCents,
      taxCents: totalCents - line.lineTotalCents,
      taxLines,
      totalCents,
      userId: user!._id,
      companyId: user!.companyId,
      placedBy: user!._id,
      userEmail: user!.email,
      userName: user!.name,
      phone: "+1 313 555 0199",
      address: formatAddress(delivery),
      deliveryAddress: delivery,
      poNumber: `${MARK}-${po}`,
      createdAt: at(placed),
      updatedAt: at(placed),
      ...fields(totalCents),
    });
    return doc._id.toString();
  }
  const bankPaid = (totalCents: number, daysAgo: number, reference: string) => ({
    paymentMethod: "bank-transfer",
    payments: [
      {
        amountCents: totalCents,
        method: "bank-transfer",
        receivedOn: day(daysAgo),
        reference,
        recordedBy: staff,
        recordedAt: at(daysAgo),
      },
    ],
    paidCents: totalCents,
    paidAt: at(daysAgo),
  });
  /** Paid by bank transfer, then cancelled by the shop before shipping: its credit note on the account. */
  async function cancelledPaid(partNumber: string, quantity: number, placed: number, po: string, reason: string) {
    const id = await seed(casey, CASEY_HOME, partNumber, quantity, placed, po, (total) => ({
      ...bankPaid(total, placed - 1, `Casey ${po}`),
      status: "cancelled",
      cancelledAt: at(placed - 2),
      cancelReason: reason,
      creditPending: true,
    }));
    await assignInvoiceNumber(id);
    const credited = await issueCreditNote(id, { reason: "cancellation" }, staff);
    if (credited.outcome !== "issued") return null;
    // Issued the day it was cancelled.
    await Order.updateOne({ _id: id }, { $set: { "creditNotes.0.issuedAt": at(placed - 2) } });
    return credited;
  }

  // Paid out: credit of 60 days ago, paid to Casey's bank five days later.
  const paidOut = await cancelledPaid("PW-1008", 20, 60, "1", "Discontinued by the maker before it shipped.");
  if (paidOut) {
    await recordPayout(paidOut.order.id, paidOut.note.id, { reference: "ACH 0093311", by: staff });
    await Order.updateOne({ _id: paidOut.order.id }, { $set: { "creditNotes.0.payout.paidAt": at(55) } });
  }

  // Credit applied: a credit note of 30 days ago comes off the order placed two days later; the rest by transfer.
  await cancelledPaid("PW-1005", 10, 30, "2", "Ordered twice by mistake; the customer asked us to cancel one.");
  const later = await seed(casey, CASEY_HOME, "PW-1006", 60, 28, "3", () => ({
    paymentMethod: "bank-transfer",
    status: "unpaid",
  }));
  const [note] = await creditHeldBy(String(casey.companyId));
  const order = await getOrderById(later);
  if (note && order) {
    const use = {
      id: new mongoose.Types.ObjectId().toString(),
      orderId: later,
      amountCents: Math.min(note.heldCents, order.totalCents),
    };
    if (await claimNoteCredit(note, use)) {
      await takeCreditOff(order, {
        ...use,
        noteId: note.noteId,
        noteOrderId: note.orderId,
        noteNumber: note.number,
        by: null,
      });
      await confirmNoteUse(note.orderId, note.noteId, use.id);
      // Taken off as the order was placed.
      await Order.updateOne({ _id: later }, { $set: { "creditUses.0.at": at(28) } });
      await Order.updateOne({ _id: note.orderId }, { $set: { [`creditNotes.${note.noteIndex}.uses.0.at`]: at(28) } });
    }
    const rest = (await getOrderById(later))!;
    if (rest.balanceCents > 0)
      await Order.updateOne(
        { _id: later },
        {
          $set: {
            ...bankPaid(rest.balanceCents, 27, "Casey CREDIT-DEMO-3"),
            paymentMethod: "bank-transfer",
            status: "shipped",
            shippedAt: at(26),
            shipment: { carrier: "ups", trackingNumber: "1Z999AA10123456785" },
          },
        },
      );
    await Order.updateOne({ _id: later }, { $unset: { eventsPending: "", chargeCents: "" } });
    await assignInvoiceNumber(later);
  }

  // In credit: a paid order cancelled yesterday; its credit waits for Casey's next order (or a payout).
  await cancelledPaid(
    "PW-1002",
    30,
    3,
    "4",
    "Out of stock at the maker until next quarter; we cancelled it rather than keep you waiting.",
  );

  // Taylor's invoice on account, 45 days overdue (due 30 days after it was placed, 75 days ago).
  const overdue = await seed(taylor, NORTHSIDE_DOCK, "PW-1002", 40, 75, "5", () => ({
    paymentMethod: "account",
    termsDays: 30,
    dueAt: at(45),
    status: "shipped",
    shippedAt: at(74),
    shipment: { carrier: "fedex", trackingNumber: "7712 3456 7891" },
  }));
  await assignInvoiceNumber(overdue);
  // None of this is news to anyone now: no mail or webhook for the seed.
  await Order.updateMany({ poNumber: { $regex: `^${MARK}` } }, { $unset: { eventsPending: "" } });
}
