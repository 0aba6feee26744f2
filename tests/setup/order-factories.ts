/** Orders written straight to the database (no stock is reserved), for tests of what follows ordering. */
import { randomUUID } from "node:crypto";
import { Order, toOrderView, type OrderStatus } from "~/models/order.server";
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
}: {
  user: { id: string; email: string; name: string };
  part?: OrderedPart;
  quantity?: number;
  lines?: { part: OrderedPart; quantity: number }[];
  status?: OrderStatus;
  transactionId?: string;
  /** The buyer's purchase-order number. */
  poNumber?: string;
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
    address: "1 Test Street, Springfield",
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
  });
  return toOrderView(doc.toObject());
}
