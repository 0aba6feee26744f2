/** Orders written straight to the database (no stock is reserved), for tests of what follows ordering. */
import { randomUUID } from "node:crypto";
import { Order, toOrderView, type OrderStatus } from "~/models/order.server";
import { createPart } from "./factories";

export async function createOrder({
  user,
  part,
  quantity = 100,
  status = "unpaid",
  transactionId,
}: {
  user: { id: string; email: string; name: string };
  part?: { id: string; name: string; priceCents: number };
  quantity?: number;
  status?: OrderStatus;
  transactionId?: string;
}) {
  const ordered = part ?? (await createPart());
  const paid = status === "paid" || status === "shipped";
  const doc = await Order.create({
    partId: ordered.id,
    productName: ordered.name,
    unitPriceCents: ordered.priceCents,
    priceCents: ordered.priceCents * quantity,
    orderQuantity: quantity,
    phone: "555-0100",
    address: "1 Test Street, Springfield",
    userId: user.id,
    userEmail: user.email,
    userName: user.name,
    status,
    ...(paid ? { transactionId: transactionId ?? `pi_test_${randomUUID().replace(/-/g, "").slice(0, 16)}`, paidAt: new Date() } : {}),
    ...(status === "shipped" ? { shippedAt: new Date() } : {}),
  });
  return toOrderView(doc.toObject());
}
