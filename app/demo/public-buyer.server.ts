/**
 * The demo's German public buyer: a city's works department with its Leitweg-ID (docs/e-invoices.md,
 * "XRechnung") and an order on account, invoiced, so its UBL (XRechnung 3.0, the Leitweg-ID as buyer
 * reference) downloads on first start. Its buyer has no password: staff open it from Companies.
 */
import { EMPTY_ADDRESS, formatAddress, type PostalAddress } from "~/domain/address";
import { HOME_CURRENCY } from "~/domain/money";
import { priceWith } from "~/domain/pricing";
import { Company } from "~/models/company.server";
import { Part, toPartView } from "~/models/part.server";
import { User } from "~/models/user.server";
import { assignInvoiceNumber } from "~/orders/model/invoice.server";
import { Order } from "~/orders/model/schema.server";
import { orderSearchKeys } from "~/orders/model/search-keys.server";
import { orderLine } from "./orders.server";

const DAY_MS = 24 * 60 * 60 * 1000;

export const DEMO_PUBLIC_BUYER = {
  email: "einkauf@stadtwerke-musterstadt.test",
  name: "Jonas Weber",
  companyName: "Stadtwerke Musterstadt, Fuhrpark",
  /** Its Leitweg-ID: the coarse address, a fine address and the check digits (KoSIT's example). */
  leitwegId: "04011000-1234512345-06",
  billing: {
    ...EMPTY_ADDRESS,
    company: "Stadtwerke Musterstadt",
    line1: "Rathausplatz 1",
    line2: "Zentrale Rechnungseingangsstelle",
    city: "Musterstadt",
    postalCode: "34117",
    country: "DE",
  } satisfies PostalAddress,
  depot: {
    ...EMPTY_ADDRESS,
    name: "Fuhrpark, Warenannahme",
    company: "Stadtwerke Musterstadt",
    line1: "Am Bauhof 7",
    city: "Musterstadt",
    postalCode: "34121",
    country: "DE",
  } satisfies PostalAddress,
};

/** The public buyer's company, its buyer, and one invoiced order on 30 days' terms (idempotent). */
export async function ensureDemoPublicBuyer(now: number) {
  const demo = DEMO_PUBLIC_BUYER;
  const part = await Part.findOne({ partNumber: "PW-1003" }).lean();
  if (!part || (await User.exists({ email: demo.email }))) return;
  // A public body without a VAT number: German VAT is charged.
  const tax = { country: "DE", state: null, vatNumber: null, exemptionCertificate: null };
  const company = await Company.create({
    companyName: demo.companyName,
    nameKey: demo.companyName.toLowerCase(),
    billing: demo.billing,
    billingAddress: formatAddress(demo.billing),
    country: "DE",
    leitwegId: demo.leitwegId,
    account: { termsDays: 30, creditLimitCents: 5_000_000, tax },
    ownerCount: 1,
  });
  const buyer = await User.create({
    email: demo.email,
    name: demo.name,
    role: "customer",
    emailVerifiedAt: new Date(),
    companyId: company._id,
    companyRole: "owner",
  });
  const view = toPartView(part);
  const priced = priceWith(
    { group: null, tax, currency: HOME_CURRENCY },
    new Map([[view.id, view]]),
    [{ partId: view.id, quantity: 200 }],
    demo.depot,
  );
  const line = priced.lines[0];
  const placedAt = new Date(now - 3 * DAY_MS);
  const poNumber = "BEST-2026-0815";
  const order = await Order.create({
    lines: [orderLine(part, line.quantity, line)],
    netCents: priced.netCents,
    taxCents: priced.taxCents,
    taxLines: priced.taxLines,
    totalCents: priced.totalCents,
    phone: "+49 561 5550 300",
    address: formatAddress(demo.depot),
    deliveryAddress: demo.depot,
    poNumber,
    userId: buyer._id,
    userEmail: buyer.email,
    userName: buyer.name,
    companyId: company._id,
    placedBy: buyer._id,
    companyName: demo.companyName,
    searchKeys: orderSearchKeys({ poNumber, companyName: demo.companyName, placerName: buyer.name }),
    paymentMethod: "account",
    termsDays: 30,
    dueAt: new Date(placedAt.getTime() + 30 * DAY_MS),
    status: "account",
    createdAt: placedAt,
  });
  // On account, not yet shipped: it holds its stock like the other demo orders (on hand grows by it).
  await Part.updateOne(
    { _id: part._id, "holds.orderId": { $ne: order._id } },
    { $push: { holds: { orderId: order._id, quantity: line.quantity } }, $inc: { onHand: line.quantity } },
  );
  await assignInvoiceNumber(order._id.toString());
}
