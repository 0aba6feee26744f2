/**
 * The one place prices and tax are decided (docs/behaviour.md, "Prices" and "Tax"): screens, the
 * order service and the API all call `priceLines`, or `customerPricing` and the pure functions of
 * pricing.ts for what a page shows. What a customer posts as a price, discount or tax is never read.
 */
import { getPriceGroup } from "~/models/price-group.server";
import { getPartsByIds, type PartView } from "~/models/part.server";
import { getUserById } from "~/models/user.server";
import { priceWith, VISITOR_PRICING, type CustomerPricing } from "./pricing";
import type { TaxProfile } from "./tax";

export { priceWith, type CustomerPricing, type PricedOrder, type PricedLine } from "./pricing";

/** The price group and tax details of a signed-in customer; list prices for a visitor or an admin. */
export async function customerPricing(
  customer: { id: string } | { pricing: { priceGroupId: string | null; tax: TaxProfile | null }; role?: string } | null,
): Promise<CustomerPricing> {
  if (!customer) return VISITOR_PRICING;
  const user = "pricing" in customer ? customer : await getUserById(customer.id);
  if (!user) return VISITOR_PRICING;
  const group = await getPriceGroup(user.pricing.priceGroupId);
  return { group, tax: user.pricing.tax };
}

/**
 * Prices an order's lines for a customer (or a visitor, null): each line at its volume break or the
 * customer's group price, the tax on the net, and the total. Lines whose part is gone are left out.
 */
export async function priceLines(
  customer: Parameters<typeof customerPricing>[0],
  lines: readonly { partId: string; quantity: number }[],
) {
  const [pricing, parts] = await Promise.all([
    customerPricing(customer),
    getPartsByIds(lines.map((line) => line.partId)),
  ]);
  return priceWith(pricing, parts, lines);
}
