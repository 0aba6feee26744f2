/**
 * The UK distributor's orders in pounds sterling, priced from the parts' sterling lists by the same
 * function as a real order and taxed as an export (a seed: stock is not taken): one paid by bank
 * transfer to the sterling account, shipped and invoiced, so its statement has an invoice and a
 * payment; one awaiting its transfer against the pro-forma.
 */
import { formatAddress } from "~/domain/address";
import { priceWith } from "~/domain/pricing";
import { Company, accountPricingOf } from "~/models/company.server";
import { Part, toPartView } from "~/models/part.server";
import { User } from "~/models/user.server";
import { assignInvoiceNumber } from "~/orders/model/invoice.server";
import { Order } from "~/orders/model/schema.server";
import { getEnv } from "~/services/env.server";
import { UK_DISTRIBUTOR_ADDRESS } from "./content.server";
import { orderLine, placedBy, pricedMoney } from "./orders.server";

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

export async function ensureSterlingDemoOrders(now: number, staffEmail: string) {
  const buyer = await User.findOne({ email: "uk@partsworks.test" }).lean();
  if (!buyer || (await Order.exists({ userId: buyer._id }))) return;
  const company = buyer.companyId ? await Company.findById(buyer.companyId).lean() : null;
  const { tax, currency } = accountPricingOf(company?.account);
  const pricing = { group: null, tax, currency };
  const place = async (
    wanted: [string, number][],
    { poNumber, placedDaysAgo, shippedDaysAgo }: { poNumber: string; placedDaysAgo: number; shippedDaysAgo?: number },
  ) => {
    const parts = await Part.find({ partNumber: { $in: wanted.map(([number]) => number) } }).lean();
    const views = new Map(parts.map((part) => [part._id.toString(), toPartView(part)]));
    const byNumber = new Map(parts.map((part) => [part.partNumber, part]));
    const lines = wanted.flatMap(([number, quantity]) => {
      const part = byNumber.get(number);
      return part ? [{ partId: part._id.toString(), quantity }] : [];
    });
    const priced = priceWith(pricing, views, lines, UK_DISTRIBUTOR_ADDRESS);
    if (priced.lines.length !== wanted.length) return;
    const placedAt = new Date(now - placedDaysAgo * DAY_MS);
    const paidAt = new Date(placedAt.getTime() + 2 * DAY_MS);
    const order = await Order.create({
      lines: priced.lines.map((line) => ({
        ...orderLine(
          parts.find((part) => part._id.toString() === line.partId)!,
          line.quantity,
          line,
        ),
        ...(shippedDaysAgo ? { shippedQuantity: line.quantity } : {}),
      })),
      ...pricedMoney(priced),
      buyerVatNumber: tax?.vatNumber ?? undefined,
      phone: "+44 121 496 0500",
      address: formatAddress(UK_DISTRIBUTOR_ADDRESS),
      deliveryAddress: UK_DISTRIBUTOR_ADDRESS,
      ...placedBy(buyer, company?.companyName, poNumber),
      paymentMethod: "bank-transfer",
      createdAt: placedAt,
      ...(shippedDaysAgo
        ? {
            status: "shipped",
            payments: [
              {
                amountCents: priced.totalCents,
                method: "bank-transfer",
                receivedOn: new Date(new Date(paidAt).setUTCHours(0, 0, 0, 0)),
                reference: `FASTER PAYMENT ${poNumber}`,
                recordedBy: staffEmail,
                recordedAt: paidAt,
              },
            ],
            paidCents: priced.totalCents,
            paidAt,
            shippedAt: new Date(now - shippedDaysAgo * DAY_MS),
            shipment: { carrier: "dhl", trackingNumber: "JD014600003817260877" },
          }
        : { status: "unpaid", holdUntil: new Date(placedAt.getTime() + getEnv().ORDER_HOLD_HOURS * HOUR_MS) }),
    });
    if (shippedDaysAgo) {
      await assignInvoiceNumber(order._id.toString());
      return;
    }
    // Awaiting its transfer: it holds its stock like a placed one (on hand grows by it).
    await Part.bulkWrite(
      priced.lines.map((line) => ({
        updateOne: {
          filter: { _id: line.partId, "holds.orderId": { $ne: order._id } },
          update: {
            $push: { holds: { orderId: order._id, quantity: line.quantity } },
            $inc: { onHand: line.quantity },
          },
        },
      })),
    );
  };
  await place(
    [
      ["PW-1003", 5000],
      ["PW-1004", 1000],
    ],
    { poNumber: "MMF-30412", placedDaysAgo: 9, shippedDaysAgo: 4 },
  );
  await place([["PW-1011", 600]], { poNumber: "MMF-30477", placedDaysAgo: 0 });
}
