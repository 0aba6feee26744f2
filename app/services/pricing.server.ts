/**
 * The one place prices and tax are decided (docs/behaviour.md, "Prices" and "Tax"): screens, the
 * order service and the API all call `priceLines`, or `customerPricing` and the pure functions of
 * pricing.ts for what a page shows. What a customer posts as a price, discount or tax is never read.
 */
import { getPriceGroup } from "~/models/price-group.server";
import type { PartView } from "~/domain/catalogue";
import { getPartsByIds } from "~/models/part.server";
import { getUserById } from "~/models/user.server";
import {
  inCurrency,
  noPriceIn,
  priceWith,
  unitPrice,
  VISITOR_PRICING,
  type CustomerPricing,
  type DeliveryPlace,
} from "~/domain/pricing";
import { HOME_CURRENCY, type Currency } from "~/domain/money";
import type { TaxProfile } from "~/domain/tax";

export {
  priceWith,
  type CustomerPricing,
  type DeliveryPlace,
  type PricedOrder,
  type PricedLine,
} from "~/domain/pricing";

type PricingCustomer =
  | { id: string }
  | {
      pricing: { priceGroupId: string | null; tax: TaxProfile | null; currency: Currency };
      role?: string;
    }
  | null;

/** The price group and tax details of a signed-in customer; list prices for a visitor or an admin. */
export async function customerPricing(customer: PricingCustomer): Promise<CustomerPricing> {
  if (!customer) return VISITOR_PRICING;
  const user = "pricing" in customer ? customer : await getUserById(customer.id);
  if (!user) return VISITOR_PRICING;
  const group = await getPriceGroup(user.pricing.priceGroupId);
  return { group, tax: user.pricing.tax, currency: user.pricing.currency };
}

/**
 * Prices an order's lines for a customer (or a visitor, null), delivered to `address`: each line at
 * its volume break or the customer's group price (lines of one part together), the tax on the net
 * for the delivery address's country and region, and the total. Lines whose part is gone are left out.
 */
export async function priceLines(
  customer: PricingCustomer,
  lines: readonly { partId: string; quantity: number }[],
  delivery?: DeliveryPlace | null,
) {
  const [pricing, parts] = await Promise.all([
    customerPricing(customer),
    getPartsByIds(lines.map((line) => line.partId)),
  ]);
  return priceWith(pricing, parts, lines, delivery);
}

/**
 * A list of lines as a screen shows it (the cart, the quick-order pad), each at the customer's
 * price: its unit price, list price and line total replaced, with the net, the tax and the total.
 */
export async function priceScreenLines<
  L extends { partId: string; quantity: number; lineTotalCents: number | null; priced?: boolean },
>(customer: PricingCustomer, lines: L[], delivery?: DeliveryPlace | null) {
  const wanted = lines.filter((line) => line.priced !== false);
  const order = await priceLines(customer, wanted, delivery);
  const byPart = new Map(order.lines.map((line) => [line.partId, line]));
  const priced = lines.map((line) => {
    const price = line.priced !== false ? byPart.get(line.partId) : undefined;
    return price
      ? {
          ...line,
          lineTotalCents: price.lineTotalCents,
          unitPriceCents: price.unitPriceCents,
          listPriceCents: price.listPriceCents,
          priceSource: price.source,
        }
      : { ...line, unitPriceCents: null, listPriceCents: null, priceSource: null };
  });
  return {
    lines: priced,
    currency: order.currency,
    /** Lines whose part has no price list in the currency: not orderable in it. */
    unpriced: order.unpriced,
    netCents: order.netCents,
    taxLines: order.taxLines,
    taxPlace: order.taxPlace,
    taxCents: order.taxCents,
    totalCents: order.totalCents,
  };
}

/** The quick-order pad's checked lines at the customer's price: the unit price is theirs, the list price beside it. */
export async function pricePadChecks<
  C extends {
    quantity: number | null;
    problem: unknown;
    lineTotalCents: number | null;
    part: { id: string; priceCents: number } | null;
    partNumber: string;
  },
>(customer: Parameters<typeof customerPricing>[0], checks: C[]) {
  const pricing = await customerPricing(customer);
  const ids = checks.flatMap((check) => (check.part ? [check.part.id] : []));
  const parts = await getPartsByIds(ids);
  return checks.map((check) => {
    const part = check.part ? parts.get(check.part.id) : undefined;
    if (!check.part || !part) return { ...check, listPriceCents: null };
    const quantity = check.quantity ?? part.minOrderQuantity;
    const price = priceWith(pricing, parts, [{ partId: part.id, quantity }]).lines[0];
    // Not sold in the buyer's currency: the line says so (unless it already has a problem to fix).
    if (!price) {
      const problem = check.problem ?? {
        reason: "no-price" as const,
        message: noPriceIn(check.partNumber, pricing.currency),
      };
      return { ...check, problem, lineTotalCents: null, listPriceCents: null };
    }
    return {
      ...check,
      part: { ...check.part, priceCents: price.unitPriceCents },
      listPriceCents: price.listPriceCents,
      lineTotalCents: check.lineTotalCents === null ? null : price.lineTotalCents,
    };
  });
}

/** A catalogue card's price in the currency shown: `unpriced` when the part has no list in it. */
export type CardPrice = { currency: Currency; listPriceCents?: number; unpriced?: boolean };

/**
 * Catalogue cards in the currency shown (a customer's company currency; a visitor's chosen display
 * currency): each at its list there and, for a customer with a price group, at their price (at the
 * part's minimum order), the list price beside it. A part without a list in that currency keeps
 * its dollar figures and says `unpriced`: it is shown as not orderable in it, never converted.
 */
export async function priceCards<P extends PartView | Omit<PartView, "createdAt">>(
  user: { role: string; pricing: { priceGroupId: string | null; tax: TaxProfile | null; currency: Currency } } | null,
  parts: P[],
  displayCurrency: Currency = HOME_CURRENCY,
): Promise<(P & CardPrice)[]> {
  const customer = user?.role === "customer" ? user : null;
  const currency = customer ? customer.pricing.currency : displayCurrency;
  const group = customer?.pricing.priceGroupId ? (await customerPricing(customer)).group : null;
  return parts.map((part) => {
    const sold = inCurrency(part, currency);
    if (!sold) return { ...part, currency, unpriced: true };
    const shown = { ...part, priceCents: sold.priceCents, volumeBreaks: sold.volumeBreaks, currency };
    if (!group) return shown;
    const price = unitPrice(sold, part.minOrderQuantity, group);
    return price.unitPriceCents < sold.priceCents
      ? { ...shown, priceCents: price.unitPriceCents, listPriceCents: sold.priceCents }
      : shown;
  });
}
