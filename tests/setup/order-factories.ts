/**
 * Orders written straight to the database, for tests of what follows ordering. Stock is not taken
 * from availableQuantity; an unpaid or paid order notes its hold on each part (and the part's
 * on-hand count grows by it), so cancelling it gives the units back as a placed order's would.
 */
import { randomUUID } from "node:crypto";
import { Order, type OrderStatus } from "~/orders/model/schema.server";
import { toOrderView } from "~/orders/model/view.server";
import { Part } from "~/models/part.server";
import { formatAddress, type PostalAddress } from "~/domain/address";
import { createPart } from "./factories";

type OrderedPart = { id: string; name: string; priceCents: number; partNumber?: string };

/** An order of one line (`part` x `quantity`), or of several (`lines`). */
export async function createOrder({
  user,
  part,
  quantity = 100,
  lines,
  status = "unpaid",
  transactionId,
  poNumber,
  deliveryAddress,
}: {
  user: { id: string; email: string; name: string };
  part?: OrderedPart;
  quantity?: number;
  lines?: { part: OrderedPart; quantity: number }[];
  status?: OrderStatus;
  transactionId?: string;
  /** The buyer's purchase-order number. */
  poNumber?: string;
  /** The delivery address field by field (else only the text of an order placed before fields). */
  deliveryAddress?: PostalAddress;
}) {
  const ordered = lines ?? [{ part: part ?? (await createPart()), quantity }];
  const orderLines = ordered.map((line) => ({
    partId: line.part.id,
    partNumber: line.part.partNumber ?? "",
    productName: line.part.name,
    unitPriceCents: line.part.priceCents,
    quantity: line.quantity,
    lineTotalCents: line.part.priceCents * line.quantity,
  }));
  const paid = status === "paid" || status === "shipped";
  const doc = await Order.create({
    lines: orderLines,
    totalCents: orderLines.reduce((sum, line) => sum + line.lineTotalCents, 0),
    phone: "555-0100",
    address: deliveryAddress ? formatAddress(deliveryAddress) : "1 Test Street, Springfield",
    ...(deliveryAddress ? { deliveryAddress } : {}),
    userId: user.id,
    userEmail: user.email,
    userName: user.name,
    status,
    ...(poNumber ? { poNumber } : {}),
    ...(paid
      ? {
          transactionId: transactionId ?? `pi_test_${randomUUID().replace(/-/g, "").slice(0, 16)}`,
          paidAt: new Date(),
          paidCents: orderLines.reduce((sum, line) => sum + line.lineTotalCents, 0),
        }
      : {}),
    ...(status === "shipped" ? { shippedAt: new Date() } : {}),
    ...(status === "unpaid" ? { holdUntil: new Date(Date.now() + 72 * 60 * 60 * 1000) } : {}),
  });
  if (status === "unpaid" || status === "paid" || status === "account") {
    await Part.bulkWrite(
      orderLines.map((line) => ({
        updateOne: {
          filter: { _id: line.partId, "holds.orderId": { $ne: doc._id } },
          update: { $push: { holds: { orderId: doc._id, quantity: line.quantity } }, $inc: { onHand: line.quantity } },
        },
      })),
    );
  }
  return toOrderView(doc.toObject());
}
