/**
 * What a unit costs a customer: the list price, a volume break of the part, a price group's
 * discount or net price (docs/behaviour.md, "Prices"). Pure functions shared by the server and the
 * browser; the server decides every price that is charged (pricing.server.ts).
 */
import { CURRENCIES, HOME_CURRENCY } from "~/content/currencies";
import { formatCents } from "~/format";
import type { Currency } from "./money";
import { taxLinesFor, taxPlaceFor, taxTotal, type TaxLine, type TaxPlace, type TaxProfile } from "./tax";

/**
 * From `minQuantity` units a line costs either `percentOff` below list or `unitPriceCents` a unit.
 * A part's breaks are sorted by quantity, each quantity once.
 */
export type VolumeBreak = { minQuantity: number; percentOff: number | null; unitPriceCents: number | null };

/**
 * A price group's rule: a discount on a category or a brand (in every currency), or a net price for
 * one part number in one currency (a net price in dollars says nothing of the part in euros).
 */
export type GroupRule =
  | { kind: "category" | "brand"; value: string; percentOff: number }
  | { kind: "part"; value: string; unitPriceCents: number; currency: Currency };

export type PriceGroupRules = {
  id: string;
  name: string;
  /** A discount on every part that no rule names (0: none). */
  percentOff: number;
  rules: GroupRule[];
  /** The group's price and the volume break together (the break's discount on the group price). */
  stacksWithBreaks: boolean;
};

/** A part's list price and volume breaks in a currency other than the home one, in its minor unit. */
export type PriceList = { currency: Currency; priceCents: number; volumeBreaks: VolumeBreak[] };

/**
 * What pricing reads of a part: its list price and breaks in `currency` (absent: the home currency,
 * the part's own fields), and its lists in other currencies.
 */
export type PricedPart = {
  priceCents: number;
  partNumber: string;
  category: string;
  brand: string;
  volumeBreaks: VolumeBreak[];
  currency?: Currency;
  prices?: readonly PriceList[];
};

/**
 * The part as sold in `currency`: its list price and breaks there, or null when it has no price list
 * in that currency (never converted: decision record 11). A part read is in the home currency.
 */
export function inCurrency<P extends PricedPart>(part: P, currency: Currency): P | null {
  const from = part.currency ?? HOME_CURRENCY;
  if (currency === from) return part;
  if (currency === HOME_CURRENCY) return null;
  const list = part.prices?.find((each) => each.currency === currency);
  return list ? { ...part, priceCents: list.priceCents, volumeBreaks: list.volumeBreaks, currency } : null;
}

/** "PW-1001 has no price in euros yet: ask us for one, or buy it in another currency." */
export function noPriceIn(partNumber: string, currency: Currency) {
  return `${partNumber} has no price in ${CURRENCIES[currency].plural} yet: ask us for one.`;
}

/** What gave a unit its price: the list, a break, a price group (with a break), or a quote accepted. */
export type PriceSource = "list" | "break" | "group" | "group+break" | "quote";

export type UnitPrice = {
  unitPriceCents: number;
  listPriceCents: number;
  source: PriceSource;
};

/** A percentage off a price in cents, rounded to the cent (half up). */
export function discounted(cents: number, percentOff: number) {
  return Math.round((cents * (10_000 - Math.round(percentOff * 100))) / 10_000);
}

/** The break that applies at this quantity (the highest reached), or null. */
export function breakAt(breaks: readonly VolumeBreak[], quantity: number) {
  let found: VolumeBreak | null = null;
  for (const item of breaks) if (quantity >= item.minQuantity) found = item;
  return found;
}

/** The next break above this quantity, or null. */
export function nextBreak(breaks: readonly VolumeBreak[], quantity: number) {
  return breaks.find((item) => item.minQuantity > quantity) ?? null;
}

function applyBreak(cents: number, item: VolumeBreak, listCents: number) {
  if (item.unitPriceCents !== null) {
    // A break's own price is a price below list: on a group price it takes the same share off.
    return cents === listCents ? item.unitPriceCents : Math.round((cents * item.unitPriceCents) / listCents);
  }
  return discounted(cents, item.percentOff ?? 0);
}

/** The group's price of a unit, or null when the group gives this part nothing. */
export function groupPrice(part: PricedPart, group: PriceGroupRules | null) {
  if (!group) return null;
  const currency = part.currency ?? HOME_CURRENCY;
  const net = group.rules.find(
    (rule) =>
      rule.kind === "part" && rule.currency === currency && rule.value.toUpperCase() === part.partNumber.toUpperCase(),
  );
  if (net && net.kind === "part") return net.unitPriceCents;
  const percents = group.rules.flatMap((rule) =>
    (rule.kind === "category" && rule.value === part.category) ||
    (rule.kind === "brand" && rule.value.toLowerCase() === part.brand.toLowerCase())
      ? [rule.percentOff]
      : [],
  );
  const percent = percents.length ? Math.max(...percents) : group.percentOff;
  return percent > 0 ? discounted(part.priceCents, percent) : null;
}

/**
 * The unit price at this quantity: the lowest of list, the break reached and the group's price;
 * the group's price and the break together only when the group stacks with breaks.
 */
export function unitPrice(part: PricedPart, quantity: number, group: PriceGroupRules | null): UnitPrice {
  const list = part.priceCents;
  const reached = breakAt(part.volumeBreaks, quantity);
  const breakCents = reached ? applyBreak(list, reached, list) : null;
  const groupCents = groupPrice(part, group);
  const candidates: { cents: number; source: PriceSource }[] = [{ cents: list, source: "list" }];
  if (breakCents !== null) candidates.push({ cents: breakCents, source: "break" });
  if (groupCents !== null) candidates.push({ cents: groupCents, source: "group" });
  if (groupCents !== null && reached && group?.stacksWithBreaks) {
    candidates.push({ cents: applyBreak(groupCents, reached, list), source: "group+break" });
  }
  // The lowest wins; on a tie, the simpler reason (list before break before group).
  const best = candidates.reduce((low, next) => (next.cents < low.cents ? next : low));
  return { unitPriceCents: Math.max(1, best.cents), listPriceCents: list, source: best.source };
}

/** The table the part page shows: each break's quantity and this customer's unit price there. */
export function priceTable(part: PricedPart, group: PriceGroupRules | null, fromQuantity: number) {
  const rows = [{ minQuantity: fromQuantity, ...unitPrice(part, fromQuantity, group) }];
  for (const item of part.volumeBreaks) {
    if (item.minQuantity <= fromQuantity) {
      rows[0] = { minQuantity: fromQuantity, ...unitPrice(part, fromQuantity, group) };
      continue;
    }
    rows.push({ minQuantity: item.minQuantity, ...unitPrice(part, item.minQuantity, group) });
  }
  return rows;
}

/** "250 more units reach $11.40 a unit", or null when no lower price lies ahead. */
export function nextBreakHint(part: PricedPart, quantity: number, group: PriceGroupRules | null) {
  const now = unitPrice(part, quantity, group).unitPriceCents;
  for (const item of part.volumeBreaks) {
    if (item.minQuantity <= quantity) continue;
    const then = unitPrice(part, item.minQuantity, group).unitPriceCents;
    if (then < now) return { moreUnits: item.minQuantity - quantity, unitPriceCents: then };
  }
  return null;
}

/**
 * Who is buying, as pricing sees it: their price group, the tax details an admin recorded, and the
 * country of their company's details (nothing for a visitor).
 */
export type CustomerPricing = {
  group: PriceGroupRules | null;
  tax: TaxProfile | null;
  /** The currency they buy (or, a visitor, see prices) in. */
  currency: Currency;
};

export const VISITOR_PRICING: CustomerPricing = { group: null, tax: null, currency: HOME_CURRENCY };

export type PricedLine = {
  partId: string;
  quantity: number;
  unitPriceCents: number;
  listPriceCents: number;
  source: PriceSource;
  lineTotalCents: number;
};

export type PricedOrder = {
  /** The currency of every amount below. */
  currency: Currency;
  lines: PricedLine[];
  /** The parts asked for that have no price list in the currency: not priced, not orderable in it. */
  unpriced: string[];
  /** The sum of the lines: what tax is charged on. */
  netCents: number;
  taxLines: TaxLine[];
  /** Where the order is taxed (the delivery address, or what stands in for it: tax.ts, taxPlaceFor). */
  taxPlace: TaxPlace;
  taxCents: number;
  /** Net plus tax: what the customer pays. */
  totalCents: number;
};

/** What tax reads of a delivery address: its country and region fields, nothing else. */
export type DeliveryPlace = { country: string; region: string };

/** Lines of the same part become one line of their combined quantity, in the order first seen. */
export function mergeSameParts<L extends { partId: string; quantity: number }>(lines: readonly L[]): L[] {
  const merged = new Map<string, L>();
  for (const line of lines) {
    const seen = merged.get(line.partId);
    merged.set(line.partId, seen ? { ...seen, quantity: seen.quantity + line.quantity } : { ...line });
  }
  return [...merged.values()];
}

/**
 * Prices lines of parts already read, for a customer whose pricing is known, delivered to `delivery`
 * (pure). Lines of the same part are priced as one line of their combined quantity, so two lines
 * of 300 reach the break at 600; the tax follows the delivery address (tax.ts, taxPlaceFor).
 */
export function priceWith(
  pricing: CustomerPricing,
  parts: Map<string, PricedPart>,
  lines: readonly { partId: string; quantity: number }[],
  delivery?: DeliveryPlace | null,
): PricedOrder {
  const unpriced: string[] = [];
  const priced = mergeSameParts(lines).flatMap((line) => {
    const found = parts.get(line.partId);
    if (!found) return [];
    const part = inCurrency(found, pricing.currency);
    if (!part) {
      unpriced.push(line.partId);
      return [];
    }
    const price = unitPrice(part, line.quantity, pricing.group);
    return [
      {
        partId: line.partId,
        quantity: line.quantity,
        unitPriceCents: price.unitPriceCents,
        listPriceCents: price.listPriceCents,
        source: price.source,
        lineTotalCents: price.unitPriceCents * line.quantity,
      },
    ];
  });
  const netCents = priced.reduce((sum, line) => sum + line.lineTotalCents, 0);
  const taxPlace = taxPlaceFor(pricing.tax, delivery);
  const taxLines = taxLinesFor(pricing.tax, netCents, taxPlace);
  const taxCents = taxTotal(taxLines);
  const currency = pricing.currency;
  return { currency, lines: priced, unpriced, netCents, taxLines, taxPlace, taxCents, totalCents: netCents + taxCents };
}

/**
 * Lines at unit prices agreed beforehand (an accepted quote's) in `pricing.currency`, with the tax for
 * `delivery`: the lists, breaks and groups play no part. `listPriceCents` is the list price when quoted.
 */
export function priceAgreed(
  pricing: CustomerPricing,
  lines: readonly { partId: string; quantity: number; unitPriceCents: number; listPriceCents: number }[],
  delivery?: DeliveryPlace | null,
): PricedOrder {
  const priced = lines.map((line) => ({
    partId: line.partId,
    quantity: line.quantity,
    unitPriceCents: line.unitPriceCents,
    listPriceCents: line.listPriceCents,
    source: "quote" as const,
    lineTotalCents: line.unitPriceCents * line.quantity,
  }));
  const netCents = priced.reduce((sum, line) => sum + line.lineTotalCents, 0);
  const taxPlace = taxPlaceFor(pricing.tax, delivery);
  const taxLines = taxLinesFor(pricing.tax, netCents, taxPlace);
  const taxCents = taxTotal(taxLines);
  const currency = pricing.currency;
  return {
    currency,
    lines: priced,
    unpriced: [],
    netCents,
    taxLines,
    taxPlace,
    taxCents,
    totalCents: netCents + taxCents,
  };
}

// --- The compact syntax of breaks (forms and CSV) ----------------------------------------------

/** How to write breaks, in the currency of the list they belong to ("1000:12.50 is €12.50 a unit"). */
export function breaksSyntaxHelp(currency: Currency = HOME_CURRENCY) {
  const { symbol } = CURRENCIES[currency];
  return `Quantity:price pairs separated by semicolons: 500:-5% takes 5 % off from 500 units, 1000:12.50 is ${symbol}12.50 a unit from 1,000 units. Empty: no breaks.`;
}

export const BREAKS_SYNTAX_HELP = breaksSyntaxHelp();

/** "500:-5%;1000:12.50", the form and the CSV column. */
export function formatBreaks(breaks: readonly VolumeBreak[]) {
  return breaks
    .map((item) =>
      item.unitPriceCents !== null
        ? `${item.minQuantity}:${(item.unitPriceCents / 100).toFixed(2)}`
        : `${item.minQuantity}:-${item.percentOff}%`,
    )
    .join(";");
}

export type BreaksParse = { ok: true; breaks: VolumeBreak[] } | { ok: false; message: string };

/**
 * Reads the compact syntax and checks it against the part's list price: each quantity a whole
 * number above the one before (out of order or repeated is refused, never re-sorted silently), a
 * discount from 0 to 100 % (below 100), a price per unit above zero and below list. Prices are in
 * `currency`, the list's: its symbol may lead them, another currency's may not (€12 in a dollar list).
 */
export function parseBreaks(text: string, listPriceCents?: number, currency: Currency = HOME_CURRENCY): BreaksParse {
  const { symbol } = CURRENCIES[currency];
  const pricePattern = new RegExp(`^${symbol.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}?(\\d{1,7})(?:\\.(\\d{1,2}))?$`);
  const trimmed = text.trim();
  if (!trimmed) return { ok: true, breaks: [] };
  const breaks: VolumeBreak[] = [];
  const pieces = trimmed.split(";").map((piece) => piece.trim());
  if (pieces.length > 20) return { ok: false, message: "At most 20 volume breaks" };
  for (const piece of pieces) {
    const match = /^(\d{1,9})\s*:\s*(.+)$/.exec(piece);
    if (!match) return { ok: false, message: `"${piece}" is not quantity:price (for example 500:-5%)` };
    const minQuantity = Number(match[1]);
    const value = match[2].replace(/\s/g, "");
    if (minQuantity < 1) return { ok: false, message: "A break starts at 1 unit or more" };
    const previous = breaks.at(-1);
    if (previous && minQuantity === previous.minQuantity) {
      return { ok: false, message: `Two breaks start at ${minQuantity} units: they overlap` };
    }
    if (previous && minQuantity < previous.minQuantity) {
      return {
        ok: false,
        message: `Breaks go from the smallest quantity up: ${minQuantity} comes after ${previous.minQuantity}`,
      };
    }
    const percent = /^-?(\d{1,3}(?:\.\d{1,2})?)%$/.exec(value);
    if (percent) {
      if (value.startsWith("-") === false && Number(percent[1]) !== 0) {
        return { ok: false, message: `Write a discount with a minus sign: ${minQuantity}:-${percent[1]}%` };
      }
      const percentOff = Number(percent[1]);
      if (percentOff >= 100) return { ok: false, message: "A discount is below 100 %" };
      breaks.push({ minQuantity, percentOff, unitPriceCents: null });
      continue;
    }
    if (/^-\d/.test(value)) return { ok: false, message: "A price cannot be negative" };
    const price = pricePattern.exec(value);
    if (!price) {
      return { ok: false, message: `"${match[2]}" is neither a discount (-5%) nor a price (${symbol}12.50)` };
    }
    const unitPriceCents = Number(price[1]) * 100 + Number((price[2] ?? "0").padEnd(2, "0"));
    if (unitPriceCents < 1) return { ok: false, message: "A price per unit is above zero" };
    if (listPriceCents !== undefined && unitPriceCents > listPriceCents) {
      return {
        ok: false,
        message: `The price at ${minQuantity} units is above the list price (${formatCents(listPriceCents, { currency })})`,
      };
    }
    breaks.push({ minQuantity, percentOff: null, unitPriceCents });
  }
  return { ok: true, breaks };
}
