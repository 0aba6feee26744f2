/**
 * The demo's approved order: Blake's order over his limit, on account, that Taylor approved. Placed
 * and approved through the shop's own services, so its timeline, invoice, mail and audit entry are
 * what a real approval leaves (the order awaiting approval is orders.server.ts, ensureDemoApproval).
 */
import { Part } from "~/models/part.server";
import { getUserByEmail } from "~/models/user.server";
import { approveCompanyOrder } from "~/orders/approvals.server";
import { Order } from "~/orders/model/schema.server";
import { placeCustomerOrder } from "~/orders/service.server";
import { DEMO_TRADE, NORTHSIDE_DOCK } from "./content.server";

/** Added once, also to a demo database made before approvals were recorded. */
export async function ensureDemoApproved() {
  const [blake, taylor] = await Promise.all([
    getUserByEmail("buyer@partsworks.test"),
    getUserByEmail(DEMO_TRADE.email),
  ]);
  if (!blake?.companyId || !taylor || taylor.companyId !== blake.companyId) return;
  if (await Order.exists({ userId: blake.id, "approval.outcome": "approved" })) return;
  const part = await Part.findOne({ partNumber: "PW-1003" }, { _id: 1 }).lean();
  if (!part) return;
  // 300 oil filters: over Blake's $1,500 per order, so it waits for an owner.
  const placed = await placeCustomerOrder({
    user: { id: blake.id },
    lines: [{ partId: String(part._id), quantity: 300 }],
    phone: "+1 313 555 0199",
    delivery: NORTHSIDE_DOCK,
    poNumber: "NFG-4388",
    payment: "account",
  });
  if (!placed.ok || placed.order.status !== "approval") return;
  await approveCompanyOrder(taylor, placed.order.id, "Fine for the spring service run");
}
