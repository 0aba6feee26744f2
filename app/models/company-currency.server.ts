/**
 * The currency a company buys in (`account.currency` on the company, decision record 11): its prices,
 * orders, credit limit and caps are in it. Staff set it at any time (an order keeps the currency it
 * was placed in); an owner chooses it only before the company's first order, since a change after
 * that would split its account between currencies without anyone at the shop knowing why.
 */
import type { Currency } from "~/domain/money";
import { Order } from "~/orders/model/schema.server";
import { Company } from "./company.server";

const isObjectId = (id: unknown): id is string => typeof id === "string" && /^[a-f0-9]{24}$/i.test(id);

/** Sets the company's currency; false when there is no such company. */
export async function setCompanyCurrency(companyId: string, currency: Currency) {
  if (!isObjectId(companyId)) return false;
  // Field by field: the same block holds the terms, price group and tax details.
  const result = await Company.updateOne({ _id: companyId }, { $set: { "account.currency": currency } });
  return result.matchedCount === 1;
}

/**
 * Whether the company has placed an order: one being placed counts (its currency is already taken
 * from the company), one that failed to be placed does not. Read through the orders' company index.
 */
export async function companyHasOrdered(companyId: string) {
  if (!isObjectId(companyId)) return false;
  return Boolean(await Order.exists({ companyId, status: { $ne: "failed" } }));
}
