/**
 * Quotes (docs/decisions/0012-quotes-and-orders.md): a buyer asks for a price on lines of parts, the
 * shop answers with numbered versions, and accepting one places an order at its prices through
 * checkout. What a quote's states read as, its numbers, its paths and the rules its forms share. Pure.
 */
import { formatCents } from "~/format";
import type { Currency } from "./money";

/**
 * requested (waiting for the shop) -> quoted (a version sent) -> accepted (an order placed from
 * it), or revision (the buyer asked for another version: back to the shop) -> quoted again; the
 * shop may decline a request at any point before acceptance; a quoted one past its validity expires.
 */
export const QUOTE_STATUSES = ["requested", "quoted", "revision", "accepted", "declined", "expired"] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

/** The states that wait for the shop's answer (Shop Today, the staff reminder). */
export const WAITING_FOR_SHOP = ["requested", "revision"] as const satisfies readonly QuoteStatus[];
/** The states a quote ends in: nothing changes it after them. */
export const ENDED_QUOTE_STATUSES = ["accepted", "declined", "expired"] as const satisfies readonly QuoteStatus[];

export const QUOTE_STATUS_WORDS: Record<QuoteStatus, { label: string; buyer: string; tone: "wait" | "act" | "done" }> =
  {
    requested: { label: "Requested", buyer: "We are pricing your request", tone: "wait" },
    quoted: { label: "Quoted", buyer: "Priced: accept it or ask for a revision", tone: "act" },
    revision: { label: "Revision asked", buyer: "We are preparing a new version", tone: "wait" },
    accepted: { label: "Accepted", buyer: "Accepted: ordered at the quoted prices", tone: "done" },
    declined: { label: "Declined", buyer: "We could not quote this request", tone: "done" },
    expired: { label: "Expired", buyer: "Expired: ask for a new quote", tone: "done" },
  };

// --- What screens, mails and documents read of a quote (the model's view, app/orders/model/quote-view.server.ts)

/** A line the buyer asked for, with the price a unit they hope for. */
export type QuoteRequestLine = {
  partId: string;
  partNumber: string;
  productName: string;
  quantity: number;
  targetUnitPriceCents: number | null;
};

/** A line of a version sent: the price a unit and lead time the shop quoted. */
export type QuotedLine = {
  partId: string;
  partNumber: string;
  productName: string;
  quantity: number;
  unitPriceCents: number;
  listUnitPriceCents: number;
  leadTimeDays: number;
  belowFloor: boolean;
};

export type QuoteVersionView = {
  version: number;
  /** "Q-100012-2" */
  label: string;
  lines: QuotedLine[];
  netCents: number;
  validUntilDay: string;
  validUntil: string;
  terms: string;
  note: string;
  partialAllowed: boolean;
  sentAt: string;
  sentByName: string;
};

export type QuoteMessage = {
  at: string;
  authorName: string;
  fromShop: boolean;
  text: string;
  kind: "request" | "sent" | "revision" | "declined";
};

export const QUOTE_NUMBER_PREFIX = "Q-";
/** The first quote is Q-100001, as the first order is SO-100001. */
export const QUOTE_NUMBER_BASE = 100_000;

/** "Q-100012", or with a version "Q-100012-2". */
export function formatQuoteNumber(number: number, version?: number | null) {
  return `${QUOTE_NUMBER_PREFIX}${number}${version ? `-${version}` : ""}`;
}

/** "Q-100012", "q100012", "Q-100012-2" or "100012" as 100012; anything else null. */
export function parseQuoteNumber(text: string): number | null {
  const match = /^(?:q[-\s]?)?(\d{1,12})(?:-\d{1,3})?$/i.exec(text.trim());
  if (!match) return null;
  const number = Number(match[1]);
  return Number.isSafeInteger(number) && number > 0 ? number : null;
}

export const quotePath = (id: string) => `/dashboard/quotes/${id}`;
export const staffQuotePath = (id: string) => `/dashboard/manageQuotes/${id}`;
/** The printable quotation of one version (its PDF at the same path with `/pdf`). */
export const quoteDocumentPath = (id: string, version: number) => `/documents/quotes/${id}/${version}`;

export const MAX_QUOTE_LINES = 50;
export const MAX_QUOTE_NOTE = 2000;
export const MAX_QUOTE_MESSAGE = 2000;
export const MAX_LEAD_TIME_DAYS = 365;
/** A version is valid for a day at least and three months at most. */
export const MAX_VALIDITY_DAYS = 92;
/** Buyers hear that their quote runs out this many days before its last day. */
export const EXPIRY_REMINDER_DAYS = 3;
/** Staff hear of a request waiting longer than this (a working day). */
export const STAFF_REMINDER_HOURS = 24;

/**
 * The lowest unit price the shop quotes a part at without an override: the floor an admin set in
 * the currency, else the lowest price the part's own list reaches there (its deepest volume break),
 * so a part nobody gave a floor is never quoted below what its list allows by accident.
 */
export function floorPrice(
  part: { priceCents: number; volumeBreaks: readonly { unitPriceCents: number | null; percentOff: number | null }[] },
  setFloorCents: number | null | undefined,
) {
  if (setFloorCents) return setFloorCents;
  const breakPrices = part.volumeBreaks.map((item) =>
    item.unitPriceCents !== null
      ? item.unitPriceCents
      : Math.round((part.priceCents * (10_000 - Math.round((item.percentOff ?? 0) * 100))) / 10_000),
  );
  return Math.min(part.priceCents, ...breakPrices);
}

/** "Below the floor price of €9.80: tick the override to quote it (it is audited)". */
export function belowFloorMessage(floorCents: number, currency: Currency) {
  return `Below the floor price of ${formatCents(floorCents, { currency })}: tick "Quote below the floor" to quote it (the override is audited)`;
}

/** The last moment a version valid until `day` (YYYY-MM-DD) may be accepted: the end of that day, UTC. */
export function endOfValidity(day: string) {
  return new Date(`${day}T23:59:59.999Z`);
}
