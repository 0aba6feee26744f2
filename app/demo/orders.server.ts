/**
 * The demo's orders, so every screen has something to show on first start: orders in every state, the
 * EU company's intra-community supplies (one shipped and invoiced, one waiting), a bank transfer
 * awaiting payment, an order awaiting approval.
 */
import type { Types } from "mongoose";
import { EMPTY_ADDRESS, formatAddress, type PostalAddress } from "~/domain/address";
import { Part, toPartView } from "~/models/part.server";
import { Company } from "~/models/company.server";
import { accountPricingOf, User } from "~/models/user.server";
import { priceWith, type PricedLine, type PricedOrder } from "~/domain/pricing";
import { taxLinesFor, taxPlaceFor, taxTotal } from "~/domain/tax";
import { assignInvoiceNumber } from "~/orders/model/invoice.server";
import { Order } from "~/orders/model/schema.server";
import { orderSearchKeys } from "~/orders/model/search-keys.server";
import { getEnv } from "~/services/env.server";
import { priceLines } from "~/services/pricing.server";
import { BECKER_HAMBURG, CASEY_HOME, DEMO_PARTS, DEMO_TRADE, DEMO_USERS, NORTHSIDE_DOCK } from "./content.server";

/**
 * The EU company's orders, intra-community supplies priced and taxed by the same function as a real
 * order (a seed: stock is not taken): one paid and shipped, invoiced the day it shipped; one paid and
 * waiting to ship, with its pro-forma until then (docs/decisions/0010-invoice-at-shipping.md).
 */
export async function ensureEuDemoOrder(now: number) {
  const buyer = await User.findOne({ email: "eu@partsworks.test" }).lean();
  if (!buyer || (await Order.exists({ userId: buyer._id }))) return;
  const company = buyer.companyId ? await Company.findById(buyer.companyId).lean() : null;
  const { tax, currency } = accountPricingOf(company?.account);
  const pricing = { group: null, tax, currency };
  const place = async (
    partNumber: string,
    quantity: number,
    { poNumber, placedDaysAgo, shippedDaysAgo }: { poNumber: string; placedDaysAgo: number; shippedDaysAgo?: number },
  ) => {
    const part = await Part.findOne({ partNumber }).lean();
    if (!part) return;
    const view = toPartView(part);
    const priced = priceWith(pricing, new Map([[view.id, view]]), [{ partId: view.id, quantity }], BECKER_HAMBURG);
    const line = priced.lines[0];
    const placedAt = new Date(now - placedDaysAgo * DAY_MS);
    const order = await Order.create({
      lines: [{ ...orderLine(part, line.quantity, line), ...(shippedDaysAgo ? { shippedQuantity: quantity } : {}) }],
      ...pricedMoney(priced),
      buyerVatNumber: pricing.tax?.vatNumber ?? undefined,
      phone: "+49 40 5550 1200",
      address: formatAddress(BECKER_HAMBURG),
      deliveryAddress: BECKER_HAMBURG,
      ...placedBy(buyer, company?.companyName, poNumber),
      paymentMethod: "card",
      paidCents: priced.totalCents,
      paidAt: new Date(placedAt.getTime() + HOUR_MS),
      transactionId: `pi_demo_eu_${poNumber.replace(/\W/g, "_")}`,
      createdAt: placedAt,
      ...(shippedDaysAgo
        ? {
            status: "shipped",
            shippedAt: new Date(now - shippedDaysAgo * DAY_MS),
            shipment: { carrier: "dhl", trackingNumber: "JD014600003817260152" },
          }
        : { status: "paid" }),
    });
    if (shippedDaysAgo) {
      await assignInvoiceNumber(order._id.toString());
      return;
    }
    // Paid, not yet shipped: it holds its stock like the other demo orders (on hand grows by it).
    await Part.updateOne(
      { _id: part._id, "holds.orderId": { $ne: order._id } },
      { $push: { holds: { orderId: order._id, quantity: line.quantity } }, $inc: { onHand: line.quantity } },
    );
  };
  await place("PW-1005", 1000, { poNumber: "BE-2026-117", placedDaysAgo: 12, shippedDaysAgo: 3 });
  await place("PW-1001", 200, { poNumber: "BE-2026-131", placedDaysAgo: 1 });
}

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

/** A demo order's money as checkout freezes it: the currency of the sale, net, tax lines and total. */
export function pricedMoney(priced: PricedOrder) {
  const { currency, netCents, taxCents, taxLines, totalCents } = priced;
  return { currency, netCents, taxCents, taxLines, totalCents };
}

/** Who placed a demo order, for which company, under which PO number (and the keys staff find it by). */
export function placedBy(
  buyer: { _id: Types.ObjectId; email: string; name: string; companyId?: Types.ObjectId | null },
  companyName: string | null | undefined,
  poNumber: string,
) {
  return {
    poNumber,
    userId: buyer._id,
    userEmail: buyer.email,
    userName: buyer.name,
    companyId: buyer.companyId,
    placedBy: buyer._id,
    companyName: companyName ?? undefined,
    searchKeys: orderSearchKeys({ poNumber, companyName, placerName: buyer.name }),
  };
}

/**
 * A demo order's line as a placed order keeps it: the part's number and name when ordered, at the
 * price `priced` gives it (priced as a placed order is), else at the list price.
 */
export function orderLine(
  part: { _id: Types.ObjectId; partNumber: string; name: string; priceCents: number },
  quantity: number,
  priced?: PricedLine,
) {
  const ordered = { partId: part._id, partNumber: part.partNumber, productName: part.name };
  if (!priced) {
    return { ...ordered, unitPriceCents: part.priceCents, quantity, lineTotalCents: part.priceCents * quantity };
  }
  return {
    ...ordered,
    unitPriceCents: priced.unitPriceCents,
    quantity,
    lineTotalCents: priced.lineTotalCents,
    listUnitPriceCents: priced.listPriceCents,
    priceSource: priced.source,
  };
}

/**
 * The distributor (no payment terms) chose bank transfer against the pro-forma: unpaid, its stock
 * held for the usual time, awaiting the money. Added once, priced as a placed order is (a seed:
 * stock is not taken, on hand grows by the hold).
 */
export async function ensureDemoBankTransferOrder(now: number) {
  const dana = await User.findOne({ email: "distributor@partsworks.test" }).lean();
  if (!dana || (await Order.exists({ userId: dana._id, paymentMethod: "bank-transfer" }))) return;
  const wanted = await Part.find({ partNumber: { $in: ["PW-1001", "PW-1006"] } }).lean();
  if (wanted.length < 2) return;
  const delivery: PostalAddress = {
    ...EMPTY_ADDRESS,
    company: "Great Lakes Parts Distribution",
    line1: "900 Harbor Drive",
    city: "Toledo",
    region: "OH",
    postalCode: "43604",
    country: "US",
  };
  const priced = await priceLines(
    { id: dana._id.toString() },
    wanted.map((part) => ({ partId: part._id.toString(), quantity: 200 })),
    delivery,
  );
  const byId = new Map(wanted.map((part) => [part._id.toString(), part]));
  const createdAt = new Date(now - 5 * HOUR_MS);
  const company = dana.companyId ? await Company.findById(dana.companyId, { companyName: 1 }).lean() : null;
  const order = await Order.create({
    lines: priced.lines.map((line) => orderLine(byId.get(line.partId)!, line.quantity, line)),
    netCents: priced.netCents,
    taxCents: priced.taxCents,
    taxLines: priced.taxLines,
    totalCents: priced.totalCents,
    phone: "+1 419 555 0160",
    address: formatAddress(delivery),
    deliveryAddress: delivery,
    poNumber: "GLP-7781",
    userId: dana._id,
    companyId: dana.companyId,
    placedBy: dana._id,
    userEmail: dana.email,
    userName: dana.name,
    ...(company?.companyName ? { companyName: company.companyName } : {}),
    searchKeys: orderSearchKeys({ poNumber: "GLP-7781", companyName: company?.companyName, placerName: dana.name }),
    paymentMethod: "bank-transfer",
    status: "unpaid",
    holdUntil: new Date(createdAt.getTime() + getEnv().ORDER_HOLD_HOURS * HOUR_MS),
    createdAt,
    updatedAt: createdAt,
  });
  await Part.bulkWrite(
    priced.lines.map((line) => ({
      updateOne: {
        filter: { _id: line.partId, "holds.orderId": { $ne: order._id } },
        update: { $push: { holds: { orderId: order._id, quantity: line.quantity } }, $inc: { onHand: line.quantity } },
      },
    })),
  );
}

/**
 * Blake's order over his limit, waiting for Taylor's approval (its stock held for the hold window, as a placed one's):
 * added once, also to a demo database made before companies.
 */
export async function ensureDemoApproval(now: number) {
  const blake = await User.findOne({ email: "buyer@partsworks.test" }).lean();
  if (!blake?.companyId) return;
  // The approved one (approvals.server.ts) waited too: this is the one still waiting, or that once did.
  const approved = "approved" as const;
  if (await Order.exists({ userId: blake._id, approvalRequired: true, "approval.outcome": { $ne: approved } })) return;
  const part = await Part.findOne({ partNumber: "PW-1002" }).lean();
  if (!part) return;
  const quantity = 100;
  const createdAt = new Date(now - 2 * HOUR_MS);
  const netCents = part.priceCents * quantity;
  const taxLines = taxLinesFor(null, netCents, taxPlaceFor(null, NORTHSIDE_DOCK));
  const approvalMoney = { netCents, taxCents: taxTotal(taxLines), taxLines, totalCents: netCents + taxTotal(taxLines) };
  const order = await Order.create({
    lines: [orderLine(part, quantity)],
    ...approvalMoney,
    userId: blake._id,
    companyId: blake.companyId,
    placedBy: blake._id,
    userEmail: blake.email,
    userName: blake.name,
    companyName: DEMO_TRADE.companyName,
    searchKeys: orderSearchKeys({ poNumber: "NFG-4450", companyName: DEMO_TRADE.companyName, placerName: blake.name }),
    poNumber: "NFG-4450",
    phone: "+1 313 555 0199",
    address: formatAddress(NORTHSIDE_DOCK),
    deliveryAddress: NORTHSIDE_DOCK,
    paymentMethod: "card",
    status: "approval",
    approvalRequired: true,
    approval: { limitCents: blake.spendingLimitCents ?? 0 },
    // Held for the same window as an unpaid card order, from when it was placed.
    holdUntil: new Date(createdAt.getTime() + getEnv().ORDER_HOLD_HOURS * HOUR_MS),
    createdAt,
    updatedAt: createdAt,
  });
  // Held like a live order's (a seed, not a sale: on hand grows by it, so the stock check adds up).
  await Part.updateOne(
    { _id: part._id, "holds.orderId": { $ne: order._id } },
    { $push: { holds: { orderId: order._id, quantity } }, $inc: { onHand: quantity } },
  );
}

/**
 * Orders in every state, so Shop Today, the sales chart, a statement, invoices and packing slips
 * show something on first start: awaiting card payment, cancelled, paid to ship, shipped with
 * tracking (Casey, by card or transfer), and on account: open, part-paid, overdue, paid (Taylor).
 * Written straight to the database (a seed, not a sale: stock is not taken), oldest first, so
 * their numbers follow the days they were placed.
 */
export async function createDemoOrders(now: number) {
  const [admin, casey, taylor] = await Promise.all(
    DEMO_USERS.map((demo) => User.findOne({ email: demo.email }).lean()),
  );
  const parts = new Map(
    (await Part.find({ partNumber: { $in: DEMO_PARTS.map(([number]) => number) } }).lean()).map((part) => [
      part.partNumber,
      part,
    ]),
  );
  if (!admin || !casey || !taylor || parts.size < 4) return;
  const staff = admin.email;
  const holdHours = getEnv().ORDER_HOLD_HOURS;
  const at = (daysAgo: number) => new Date(now - daysAgo * DAY_MS);
  const lines = (wanted: [string, number][]) =>
    wanted.flatMap(([partNumber, quantity]) => {
      const part = parts.get(partNumber);
      return part ? [orderLine(part, quantity)] : [];
    });
  const companyNames = new Map(
    (await Company.find({ _id: { $in: [casey.companyId!, taylor.companyId!] } }, { companyName: 1 }).lean()).map(
      (company) => [String(company._id), company.companyName ?? ""],
    ),
  );
  const buyer = (user: typeof casey, delivery: PostalAddress) => {
    const companyName = companyNames.get(String(user.companyId)) ?? "";
    return {
      userId: user._id,
      companyId: user.companyId,
      placedBy: user._id,
      userEmail: user.email,
      userName: user.name,
      phone: "+1 313 555 0199",
      address: formatAddress(delivery),
      deliveryAddress: delivery,
      ...(companyName ? { companyName } : {}),
      searchKeys: orderSearchKeys({ companyName, placerName: user.name }),
    };
  };
  const transfer = (amountCents: number, daysAgo: number, reference: string) => ({
    amountCents,
    method: "bank-transfer" as const,
    receivedOn: new Date(new Date(at(daysAgo)).setUTCHours(0, 0, 0, 0)),
    reference,
    recordedBy: staff,
    recordedAt: at(daysAgo),
  });
  const caseyAt = buyer(casey, CASEY_HOME);
  const taylorAt = buyer(taylor, NORTHSIDE_DOCK);
  const onAccount = (placedDaysAgo: number) => ({
    paymentMethod: "account" as const,
    termsDays: 30,
    dueAt: new Date(at(placedDaysAgo).getTime() + 30 * DAY_MS),
  });
  const shipped = (daysAgo: number, shipment: { carrier: string; trackingNumber?: string }) => ({
    status: "shipped",
    shippedAt: at(daysAgo),
    shipment,
  });
  type Seed = { placed: number; fields: Record<string, unknown>; wanted: [string, number][] };
  const seeds: Seed[] = [
    // Taylor: on account, paid by transfer and shipped (sales), then overdue and shipped, part-paid, open.
    {
      placed: 28,
      wanted: [
        ["PW-1001", 200],
        ["PW-1003", 300],
      ],
      fields: {
        ...taylorAt,
        ...onAccount(28),
        ...shipped(27, { carrier: "ups", trackingNumber: "1Z999AA10123456784" }),
        poNumber: "NFG-4410",
      },
    },
    {
      placed: 40,
      wanted: [["PW-1002", 120]],
      fields: {
        ...taylorAt,
        ...onAccount(40),
        ...shipped(39, { carrier: "fedex", trackingNumber: "7712 3456 7890" }),
        poNumber: "NFG-4398",
      },
    },
    {
      placed: 12,
      wanted: [["PW-1004", 150]],
      fields: { ...taylorAt, ...onAccount(12), ...shipped(11, { carrier: "collected" }), poNumber: "NFG-4432" },
    },
    {
      placed: 3,
      wanted: [["PW-1005", 100]],
      fields: { ...taylorAt, ...onAccount(3), status: "account", poNumber: "NFG-4451" },
    },
    // Casey: shipped with tracking, paid to ship, cancelled, awaiting card payment.
    {
      placed: 20,
      wanted: [
        ["PW-1003", 100],
        ["PW-1002", 40],
      ],
      fields: { ...caseyAt, ...shipped(18, { carrier: "usps", trackingNumber: "9400 1000 0000 0000 0000 00" }) },
    },
    { placed: 6, wanted: [["PW-1006", 100]], fields: { ...caseyAt, status: "paid" } },
    { placed: 4, wanted: [["PW-1001", 100]], fields: { ...caseyAt, status: "cancelled", cancelledAt: at(4) } },
    {
      placed: 1,
      wanted: [
        ["PW-1002", 100],
        ["PW-1004", 100],
      ],
      fields: { ...caseyAt, status: "unpaid" },
    },
  ];
  seeds.sort((a, b) => b.placed - a.placed);
  for (const seed of seeds) {
    const orderLines = lines(seed.wanted);
    if (!orderLines.length) continue;
    // Taxed as a placed order is: by its delivery address (these are Michigan addresses: 6 %).
    const netCents = orderLines.reduce((sum, line) => sum + line.lineTotalCents, 0);
    const taxLines = taxLinesFor(null, netCents, taxPlaceFor(null, seed.fields.deliveryAddress as PostalAddress));
    const totalCents = netCents + taxTotal(taxLines);
    const createdAt = at(seed.placed);
    const money =
      seed.fields.poNumber === "NFG-4410"
        ? { payments: [transfer(totalCents, 14, "NFG-4410 / SO")], paidCents: totalCents, paidAt: at(14) }
        : seed.fields.poNumber === "NFG-4432"
          ? {
              payments: [transfer(Math.round(totalCents / 2), 5, "NFG-4432 part")],
              paidCents: Math.round(totalCents / 2),
            }
          : seed.fields.paymentMethod !== "account" &&
              (seed.fields.status === "shipped" || seed.fields.status === "paid")
            ? {
                paymentMethod: "bank-transfer" as const,
                payments: [transfer(totalCents, seed.placed - 1, `Casey ${seed.placed}`)],
                paidCents: totalCents,
                paidAt: at(seed.placed - 1),
              }
            : {};
    const order = await Order.create({
      lines: orderLines,
      netCents,
      taxCents: totalCents - netCents,
      taxLines,
      totalCents,
      ...seed.fields,
      ...(seed.fields.poNumber
        ? {
            searchKeys: orderSearchKeys({
              poNumber: String(seed.fields.poNumber),
              companyName: "Northside Fleet Garage",
              placerName: String(seed.fields.userName ?? ""),
            }),
          }
        : {}),
      ...money,
      // An unpaid card order holds its stock for the hold time from when it was placed.
      ...(seed.fields.status === "unpaid" ? { holdUntil: new Date(createdAt.getTime() + holdHours * HOUR_MS) } : {}),
      createdAt,
      updatedAt: createdAt,
    });
    // A live order holds its stock: the hold is noted on each part, and (a seed, not a sale: the
    // stock shown stays as listed) the part's on-hand count includes it, so the stock check adds up.
    if (["unpaid", "paid", "account"].includes(String(seed.fields.status))) {
      await Part.bulkWrite(
        orderLines.map((line) => ({
          updateOne: {
            filter: { _id: line.partId, "holds.orderId": { $ne: order._id } },
            update: {
              $push: { holds: { orderId: order._id, quantity: line.quantity } },
              $inc: { onHand: line.quantity },
            },
          },
        })),
      );
    }
    if (seed.fields.status !== "unpaid" && seed.fields.status !== "cancelled") {
      await assignInvoiceNumber(order._id.toString());
    }
  }
}
