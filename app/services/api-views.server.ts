/**
 * How the API shows parts: money as integer minor units with its currency (orders:
 * app/orders/api-view.server.ts). `price` is the key owner's, in their company's currency; a part
 * with no list there keeps its US-dollar list price, says so by its currency, and is not orderable.
 */
import type { PartCatalogue } from "~/models/part-catalogue.server";
import type { PartView } from "~/domain/catalogue";
import { HOME_CURRENCY, type Currency } from "~/domain/money";
import { noPriceIn, type PriceList } from "~/domain/pricing";
import type { CardPrice } from "./pricing.server";
import { money } from "./api.server";
import { DEFAULT_BRAND, type Category } from "~/domain/catalogue";

type ApiPart = Omit<PartView, "createdAt"> & { brand?: string; category?: Category };

/** The part's list prices in every currency it sells in: the home list first, then the others. */
function priceListsJson(part: ApiPart) {
  const home: PriceList = { currency: HOME_CURRENCY, priceCents: part.priceCents, volumeBreaks: part.volumeBreaks };
  return [home, ...part.prices.filter((list) => list.currency !== HOME_CURRENCY)].map((list) => ({
    currency: list.currency,
    listPrice: money(list.priceCents, list.currency),
    volumeBreaks: list.volumeBreaks.map((entry) => ({
      minQuantity: entry.minQuantity,
      percentOff: entry.percentOff,
      unitPrice: entry.unitPriceCents === null ? null : money(entry.unitPriceCents, list.currency),
    })),
  }));
}

/**
 * `priced` is the part as priceCards priced it for the key owner (its price, breaks and currency
 * replaced by those of the currency shown); `part` is the part as read, whose own fields are the
 * home-currency list the price lists start from.
 */
export function partJson(priced: ApiPart & CardPrice, part: ApiPart) {
  const orderable = !priced.unpriced;
  // An unpriced part's figures are left in the home currency by priceCards: they are named so.
  const currency: Currency = orderable ? priced.currency : HOME_CURRENCY;
  return {
    id: part.id,
    partNumber: part.partNumber,
    name: part.name,
    description: part.description,
    brand: part.brand ?? DEFAULT_BRAND,
    category: part.category ?? ("other" as Category),
    price: money(priced.priceCents, currency),
    minOrderQuantity: part.minOrderQuantity,
    availableQuantity: Math.max(0, part.availableQuantity),
    inStock: part.availableQuantity >= part.minOrderQuantity,
    ...(orderable && priced.listPriceCents ? { listPrice: money(priced.listPriceCents, currency) } : {}),
    orderable,
    ...(orderable ? {} : { notOrderableReason: noPriceIn(part.partNumber, priced.currency) }),
    prices: priceListsJson(part),
  };
}

export function partDetailJson(priced: ApiPart & CardPrice, part: ApiPart, catalogue: PartCatalogue) {
  return { ...partJson(priced, part), oeNumbers: catalogue.oeNumbers, fitment: catalogue.fitment };
}
