/**
 * The demo's restock on first start: Casey's paid order of a radiator that took the whole shelf and
 * left 150 units on backorder, then staff's restock of 400 on Manage Products through the real
 * service (restockPart): the backorder is filled (the order's timeline, its mail, the audit log),
 * and Manage Products shows the part's stock in its four columns. The order is written straight to
 * the database as the other demo orders are, with the hold the stock check expects.
 */
import { Part, toPartView } from "~/models/part.server";
import { User } from "~/models/user.server";
import { assignInvoiceNumber } from "~/orders/model/invoice.server";
import { Order } from "~/orders/model/schema.server";
import { restockPart } from "~/orders/restock.server";
import { caseyPaidByTransfer } from "./warehouse.server";

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
  const order = await Order.create({
    ...(await caseyPaidByTransfer(casey, lines, { paidAt: at(4), reference: "Casey radiators", staffEmail })),
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
