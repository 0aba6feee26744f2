/**
 * The demo's restock on first start: Casey's paid order of a radiator that took the whole shelf and
 * left 150 units on backorder, then staff's restock of 400 on Manage Products through the real
 * service (restockPart): the backorder is filled (the order's timeline, its mail, the audit log),
 * and Manage Products shows the part's stock in its four columns. The order is written straight to
 * the database as the other demo orders are, with the hold the stock check expects.
 */
import { EMPTY_ADDRESS, formatAddress, type PostalAddress } from "~/domain/address";
import { taxLinesFor, taxPlaceFor, taxTotal } from "~/domain/tax";
import { Part, toPartView } from "~/models/part.server";
import { User } from "~/models/user.server";
import { Company } from "~/models/company.server";
import { assignInvoiceNumber } from "~/orders/model/invoice.server";
import { Order } from "~/orders/model/schema.server";
import { restockPart } from "~/orders/restock.server";

const DAY_MS = 24 * 60 * 60 * 1000;
const RESTOCKED_PART = "PW-1010";
const BACKORDERED = 150;
const RECEIVED = 400;

export async function ensureDemoRestock(now: number, caseyEmail: string, staffEmail: string) {
  const [casey, staff, part] = await Promise.all([
    User.findOne({ email: caseyEmail }).lean(),
    User.findOne({ email: staffEmail }, { email: 1 }).lean(),
    Part.findOne({ partNumber: RESTOCKED_PART }, { terms: 0, words: 0 }).lean(),
  ]);
  if (!casey || !staff || !part || (part.holds ?? []).length) return;
  if (await Order.exists({ userId: casey._id, "lines.partId": part._id })) return;
  const at = (daysAgo: number) => new Date(now - daysAgo * DAY_MS);
  const onShelf = part.availableQuantity;
  const quantity = onShelf + BACKORDERED;
  const delivery: PostalAddress = {
    ...EMPTY_ADDRESS,
    line1: "12 Elm Street",
    city: "Ann Arbor",
    region: "MI",
    postalCode: "48104",
    country: "US",
  };
  const lines = [
    {
      partId: part._id,
      partNumber: part.partNumber,
      productName: part.name,
      unitPriceCents: part.priceCents,
      quantity,
      lineTotalCents: part.priceCents * quantity,
      backorderedQuantity: BACKORDERED,
      backorderExpectedOn: new Date(new Date(at(-1)).setUTCHours(0, 0, 0, 0)),
    },
  ];
  const netCents = lines[0].lineTotalCents;
  const taxLines = taxLinesFor(null, netCents, taxPlaceFor(null, delivery));
  const totalCents = netCents + taxTotal(taxLines);
  const company = casey.companyId ? await Company.findById(casey.companyId, { companyName: 1 }).lean() : null;
  const order = await Order.create({
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
    address: formatAddress(delivery),
    deliveryAddress: delivery,
    paymentMethod: "bank-transfer",
    status: "paid",
    payments: [
      {
        amountCents: totalCents,
        method: "bank-transfer",
        receivedOn: new Date(new Date(at(4)).setUTCHours(0, 0, 0, 0)),
        reference: "Casey radiators",
        recordedBy: staffEmail,
        recordedAt: at(4),
      },
    ],
    paidCents: totalCents,
    paidAt: at(4),
    backordered: true,
    createdAt: at(5),
    updatedAt: at(4),
  });
  // The order took the whole shelf; the rest waits on backorder.
  const held = await Part.updateOne(
    { _id: part._id, availableQuantity: onShelf, "holds.orderId": { $ne: order._id } },
    {
      $set: { backorderable: true, leadTimeDays: 10 },
      $inc: { availableQuantity: -onShelf },
      $push: { holds: { orderId: order._id, quantity, backordered: BACKORDERED } },
    },
  );
  if (held.modifiedCount !== 1) return;
  await assignInvoiceNumber(order._id.toString());
  // Staff's restock, as Manage Products saves it: the backorder is filled first, the rest is available.
  await restockPart(
    { partId: part._id.toString(), priceCents: part.priceCents, availableQuantity: RECEIVED, expectedStock: 0 },
    toPartView({ ...part, availableQuantity: 0 }),
    { actor: { id: staff._id.toString(), email: staff.email } },
  );
}
