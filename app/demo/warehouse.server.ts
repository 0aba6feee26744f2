/**
 * The demo's warehouse on first start: a part that may be backordered (its shelf empty, the next
 * stock expected in twelve days), and Casey's order of it with 200 units on backorder, whose other
 * line already left in a first parcel: Part-shipped, on Shop Today's backorders. Written straight
 * to the database as the other demo orders are, with the holds and counts the stock check expects.
 */
import { issueCreditNote } from "~/orders/model/credit-notes.server";
import { recordRefund } from "~/orders/model/refunds.server";
import mongoose from "mongoose";
import { EMPTY_ADDRESS, formatAddress, type PostalAddress } from "~/domain/address";
import { taxLinesFor, taxPlaceFor, taxTotal } from "~/domain/tax";
import { RMA_NUMBER_BASE } from "~/domain/returns";
import { Part } from "~/models/part.server";
import { User } from "~/models/user.server";
import { Company } from "~/models/company.server";
import { assignInvoiceNumber } from "~/orders/model/invoice.server";
import { Order } from "~/orders/model/schema.server";
import { nextInSequence } from "~/models/counter.server";

const DAY_MS = 24 * 60 * 60 * 1000;
const BACKORDERED_PART = "PW-1009";
const SHIPPED_PART = "PW-1007";

/** Casey's Ann Arbor address, where the demo's warehouse orders go. */
export const ANN_ARBOR: PostalAddress = {
  ...EMPTY_ADDRESS,
  line1: "12 Elm Street",
  city: "Ann Arbor",
  region: "MI",
  postalCode: "48104",
  country: "US",
};

type Casey = { _id: mongoose.Types.ObjectId; companyId?: mongoose.Types.ObjectId | null; email: string; name: string };

/**
 * A demo order of Casey's to Ann Arbor, taxed as a placed order is and paid in full by bank transfer
 * (recorded by staff on `paidAt`): the fields every warehouse demo order shares.
 */
export async function caseyPaidByTransfer<Line extends { lineTotalCents: number }>(
  casey: Casey,
  lines: Line[],
  { paidAt, reference, staffEmail }: { paidAt: Date; reference: string; staffEmail: string },
) {
  const netCents = lines.reduce((sum, line) => sum + line.lineTotalCents, 0);
  const taxLines = taxLinesFor(null, netCents, taxPlaceFor(null, ANN_ARBOR));
  const totalCents = netCents + taxTotal(taxLines);
  const company = casey.companyId ? await Company.findById(casey.companyId, { companyName: 1 }).lean() : null;
  return {
    lines,
    netCents,
    taxCents: totalCents - netCents,
    taxLines,
    totalCents,
    userId: casey._id,
    companyId: casey.companyId,
    placedBy: casey._id,
    userEmail: casey.email,
    userName: casey.name,
    ...(company?.companyName ? { companyName: company.companyName } : {}),
    phone: "+1 313 555 0199",
    address: formatAddress(ANN_ARBOR),
    deliveryAddress: ANN_ARBOR,
    paymentMethod: "bank-transfer" as const,
    status: "paid" as const,
    payments: [
      {
        amountCents: totalCents,
        method: "bank-transfer" as const,
        receivedOn: new Date(new Date(paidAt).setUTCHours(0, 0, 0, 0)),
        reference,
        recordedBy: staffEmail,
        recordedAt: paidAt,
      },
    ],
    paidCents: totalCents,
    paidAt,
  };
}

export async function ensureDemoWarehouse(now: number, caseyEmail: string, staffEmail: string) {
  const casey = await User.findOne({ email: caseyEmail }).lean();
  if (!casey || (await Order.exists({ userId: casey._id, "shipments.0": { $exists: true } }))) return;
  const [waiting, shipped] = await Promise.all([
    Part.findOne({ partNumber: BACKORDERED_PART }).lean(),
    Part.findOne({ partNumber: SHIPPED_PART }).lean(),
  ]);
  if (!waiting || !shipped || (waiting.holds ?? []).length) return;
  const at = (daysAgo: number) => new Date(now - daysAgo * DAY_MS);
  const restockOn = new Date(new Date(now + 12 * DAY_MS).setUTCHours(0, 0, 0, 0));
  const onShelf = waiting.availableQuantity;
  const ordered = onShelf + 200;
  const lines = [
    { part: shipped, quantity: 200, extra: { shippedQuantity: 200 } },
    { part: waiting, quantity: ordered, extra: { backorderedQuantity: 200, backorderExpectedOn: restockOn } },
  ].map(({ part, quantity, extra }) => ({
    partId: part._id,
    partNumber: part.partNumber,
    productName: part.name,
    unitPriceCents: part.priceCents,
    quantity,
    lineTotalCents: part.priceCents * quantity,
    ...extra,
  }));
  const parcelId = new mongoose.Types.ObjectId();
  const order = await Order.create({
    ...(await caseyPaidByTransfer(casey, lines, { paidAt: at(2), reference: "Casey backorder", staffEmail })),
    backordered: true,
    shipmentCount: 1,
    shipments: [
      {
        _id: parcelId,
        lines: [{ lineIndex: 0, partId: shipped._id, quantity: 200 }],
        carrier: "ups",
        trackingNumber: "1Z999AA10123456785",
        shippedAt: at(1),
        shippedBy: staffEmail,
      },
    ],
    createdAt: at(3),
    updatedAt: at(1),
  });
  // The first parcel left (its hold counts it shipped); the other line took the whole shelf, the rest waits.
  await Part.updateOne(
    { _id: shipped._id, "holds.orderId": { $ne: order._id } },
    { $push: { holds: { orderId: order._id, quantity: 200, shipped: 200, shipments: [parcelId] } } },
  );
  await Part.updateOne(
    { _id: waiting._id, availableQuantity: onShelf, "holds.orderId": { $ne: order._id } },
    {
      $set: { backorderable: true, restockOn, leadTimeDays: 21 },
      $inc: { availableQuantity: -onShelf },
      $push: { holds: { orderId: order._id, quantity: ordered, backordered: 200 } },
    },
  );
  await assignInvoiceNumber(order._id.toString());
}

/**
 * The demo's returns on first start, on Casey's order shipped with tracking: one of each step (asked
 * for, approved with its RMA number, declined, received in two conditions: one line back to stock,
 * the other scrapped), so Shop Today lists two to act on. The units back to stock are on the part's
 * shelf, noted once, as the stock check expects.
 */
export async function ensureDemoReturns(now: number, caseyEmail: string, staffEmail: string) {
  const casey = await User.findOne({ email: caseyEmail }).lean();
  if (!casey || (await Order.exists({ userId: casey._id, "returns.0": { $exists: true } }))) return;
  const order = await Order.findOne({ userId: casey._id, status: "shipped", "lines.0.quantity": { $gte: 40 } })
    .sort({ shippedAt: -1 })
    .lean();
  if (!order?.shippedAt || now - order.shippedAt.getTime() > 25 * DAY_MS) return;
  const shippedAt = order.shippedAt.getTime();
  const at = (days: number) => new Date(Math.min(now - 60_000, shippedAt + days * DAY_MS));
  const line = order.lines[0];
  const other = order.lines[1];
  if (!other) return;
  const one = (quantity: number) => [{ lineIndex: 0, partId: line.partId, quantity }];
  const requester = { requestedBy: casey._id, requestedByName: casey.name };
  const receivedId = new mongoose.Types.ObjectId();
  const rma = async () => RMA_NUMBER_BASE + (await nextInSequence("rma"));
  const returns = [
    {
      ...requester,
      status: "received",
      number: await rma(),
      reason: "damaged",
      note: "Box crushed in transit: the filters look fine, two discs are cracked.",
      lines: [
        { lineIndex: 0, partId: line.partId, quantity: 4, receivedQuantity: 4, condition: "restock" },
        { lineIndex: 1, partId: other.partId, quantity: 2, receivedQuantity: 2, condition: "scrap" },
      ],
      requestedAt: at(2),
      decidedAt: at(2.2),
      decidedBy: staffEmail,
      receivedAt: at(6),
      receivedBy: staffEmail,
      creditPending: true,
      _id: receivedId,
    },
    {
      ...requester,
      status: "declined",
      reason: "wrong-part-ordered",
      note: "We ordered the wrong size.",
      lines: one(20),
      requestedAt: at(3),
      decidedAt: at(3.5),
      decidedBy: staffEmail,
      declineReason: "Opened packs of this part cannot go back; we can swap unopened ones.",
    },
    {
      ...requester,
      status: "approved",
      number: await rma(),
      reason: "wrong-part-sent",
      note: "Box says PW-1003, parts are PW-1002.",
      lines: one(10),
      requestedAt: at(8),
      decidedAt: at(8.5),
      decidedBy: staffEmail,
    },
    {
      ...requester,
      status: "requested",
      reason: "damaged",
      note: "Five pads cracked in transit.",
      lines: one(5),
      requestedAt: at(14),
    },
  ];
  const updated = await Order.updateOne(
    { _id: order._id, returnCount: { $in: [0, null] } },
    {
      $set: {
        returns,
        returnCount: returns.length,
        "lines.0.returnedQuantity": 4 + 10 + 5,
        "lines.1.returnedQuantity": 2,
      },
    },
  );
  if (updated.modifiedCount === 1)
    await Part.updateOne(
      { _id: line.partId, restockedReturns: { $ne: receivedId } },
      { $inc: { onHand: 4, availableQuantity: 4 }, $push: { restockedReturns: receivedId } },
    );
  // The received return is credited (CN-000001 on a fresh demo): the order was paid by bank transfer, so the
  // credit goes on the account; card money would show as refunded (a seed: Stripe is not asked).
  const credited = await issueCreditNote(
    order._id.toString(),
    { reason: "return", returnId: receivedId.toString() },
    staffEmail,
  );
  if (credited.outcome === "issued" && credited.note.refundCents)
    await recordRefund(credited.order.id, credited.note.id, {
      id: `re_demo_${receivedId.toString().slice(-12)}`,
      status: "succeeded",
    });
}
