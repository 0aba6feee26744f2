/**
 * The quote forms (domain/quotes.ts), shared by the server and the browser: the buyer's request, the
 * shop's version, a revision asked, a decline and an acceptance. Prices are typed in the quote's
 * currency to the cent ("12.50"), read here into minor units; days as YYYY-MM-DD.
 */
import { z } from "zod";
import { CURRENCIES } from "~/content/currencies";
import { MAX_LINE_QUANTITY } from "~/domain/order-lines";
import type { Currency } from "~/domain/money";
import { MAX_LEAD_TIME_DAYS, MAX_QUOTE_LINES, MAX_QUOTE_MESSAGE, MAX_QUOTE_NOTE } from "~/domain/quotes";
import { formatQuantity } from "~/format";
import { dayField } from "./order-forms";
import { deliveryFields, lineQuantity, recordId } from "./shop-forms";

export const QUOTES_PATH = "/dashboard/quotes";
export const STAFF_QUOTES_PATH = "/dashboard/manageQuotes";
export const NEW_QUOTE_PATH = "/dashboard/quotes/new";

/** A price a unit as typed: digits with up to two decimals, the currency's symbol allowed in front. */
export function unitPriceCents(text: string, currency: Currency): number | null {
  const { symbol } = CURRENCIES[currency];
  const trimmed = text.trim().replace(/,/g, "");
  const bare = trimmed.startsWith(symbol) ? trimmed.slice(symbol.length).trim() : trimmed;
  const match = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(bare);
  if (!match) return null;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? "0").padEnd(2, "0"));
  return cents >= 1 ? cents : null;
}

const priceText = (label: string) =>
  z
    .string({ invalid_type_error: `${label} must be a price such as 12.50` })
    .trim()
    .max(20, `${label} must be a price such as 12.50`)
    .regex(/^\D{0,3}\s?[\d,]{1,9}(\.\d{1,2})?$/, `${label} must be a price such as 12.50`);

const text = (label: string, max: number) =>
  z
    .string({ invalid_type_error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be ${formatQuantity(max)} characters or fewer`);

const requiredMessage = (label: string, max: number, missing: string) =>
  z
    .string({ required_error: missing, invalid_type_error: `${label} must be text` })
    .trim()
    .min(1, missing)
    .max(max, `${label} must be ${formatQuantity(max)} characters or fewer`);

const notBefore = (today: () => string) => (day: string) => day >= today();
const todayUtc = () => new Date().toISOString().slice(0, 10);

// --- The buyer's request ---------------------------------------------------------------------------

export const quoteRequestLineSchema = z.object({
  partNumber: requiredMessage("Part number", 32, "Enter a part number"),
  quantity: lineQuantity(MAX_LINE_QUANTITY),
  /** The price a unit the buyer hopes for (optional), in their currency. */
  targetPrice: priceText("Target price").optional(),
});

export const quoteRequestSchema = z.object({
  intent: z.literal("request"),
  lines: z
    .array(quoteRequestLineSchema, { required_error: "Add at least one part" })
    .min(1, "Add at least one part")
    .max(MAX_QUOTE_LINES, `A quote request has at most ${MAX_QUOTE_LINES} lines`),
  wantedBy: dayField({ invalid: "Enter a real date such as 2026-01-31" }, [
    notBefore(todayUtc),
    "The delivery date you want cannot be in the past",
  ]).optional(),
  note: text("Your note", MAX_QUOTE_NOTE).optional(),
});
export type QuoteRequestValue = z.infer<typeof quoteRequestSchema>;

// --- The shop's version ----------------------------------------------------------------------------

export const quoteVersionLineSchema = z.object({
  partId: recordId("Part"),
  unitPrice: priceText("Price a unit").optional(),
  leadTimeDays: z
    .number({ required_error: "Lead time is Required", invalid_type_error: "Lead time must be a whole number of days" })
    .int("Lead time must be a whole number of days")
    .min(0, "Lead time cannot be negative")
    .max(MAX_LEAD_TIME_DAYS, `Lead time must be at most ${MAX_LEAD_TIME_DAYS} days`),
  /** "Quote below the floor": the admin's override, audited. */
  belowFloor: z.boolean().optional(),
});

export const quoteVersionSchema = z.object({
  intent: z.literal("send"),
  /** How many versions the page showed: a second admin's version sent meanwhile refuses this one. */
  expectedVersions: z.number().int().min(0).max(999),
  lines: z.array(quoteVersionLineSchema).min(1, "Price every line").max(MAX_QUOTE_LINES),
  validUntil: dayField(
    { required: "Enter the last day the quote is valid", invalid: "Enter a real date such as 2026-01-31" },
    [notBefore(todayUtc), "The quote must be valid until today or later"],
  ),
  terms: text("Terms", MAX_QUOTE_NOTE).optional(),
  note: text("Note to the buyer", MAX_QUOTE_NOTE).optional(),
  partialAllowed: z.boolean().optional(),
});
export type QuoteVersionValue = z.infer<typeof quoteVersionSchema>;

export const declineQuoteSchema = z.object({
  intent: z.literal("decline"),
  reason: requiredMessage("Reason", MAX_QUOTE_MESSAGE, "Tell the buyer why the request is declined"),
});

// --- The buyer's answer ----------------------------------------------------------------------------

export const revisionSchema = z.object({
  intent: z.literal("revision"),
  message: requiredMessage("Your message", MAX_QUOTE_MESSAGE, "Tell us what to change"),
});

export const acceptQuoteSchema = z.object({
  intent: z.literal("accept"),
  /** The version the page showed: a newer one sent meanwhile is read first, never accepted blind. */
  version: z.number().int().min(1).max(999),
  /** The parts chosen, when the shop allowed accepting some lines only (absent: every line). */
  partIds: z.array(recordId("Part")).max(MAX_QUOTE_LINES).optional(),
  ...deliveryFields,
});
export type AcceptQuoteValue = z.infer<typeof acceptQuoteSchema>;
