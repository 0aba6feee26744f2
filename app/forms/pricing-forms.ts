/** The forms of prices and tax: a price group (admins' Price Groups) and a customer's prices and tax. */
import { z } from "zod";
import { US_STATES } from "~/content/tax-rates";
import { CATEGORIES, CATEGORY_LABELS } from "~/domain/catalogue";
import { CURRENCIES } from "~/content/currencies";
import { CURRENCY_CODES, HOME_CURRENCY, isCurrency, type Currency } from "~/domain/money";
import { formatCents } from "~/format";
import type { GroupRule } from "~/domain/pricing";
import { isEu } from "~/domain/tax";
import { normalizeTaxId, TAX_COUNTRIES, taxIdProblem } from "~/domain/tax-id";
import { plainText } from "~/domain/plain-text";

export const RULES_HELP =
  "One rule a line: “category brakes -8%”, “brand Nordwerk -10%”, or a net price for a part number in a currency, “part PW-1001 = $11.25”, “part PW-1001 = €10.50” or “part PW-1001 GBP 9.25” (no currency: US dollars). A net price applies to buyers in its currency only.";

const RULE_SHAPES = "“category brakes -8%”, “brand Nordwerk -10%” or “part PW-1001 = €11.25”";

/**
 * A net price rule's part number, currency code or symbol and amount: “part PW-1001 11.25”,
 * “part PW-1001 = €11.25”, “part PW-1001 EUR 11.25”. The amount starts with no letter, so a code
 * is never read as the end of the part number.
 */
const NET_PRICE = /^part\s+(.+?)(?:\s*=\s*|\s+)(?:([A-Za-z]{3})\s*)?([^\sA-Za-z]\S*)$/i;

/** A net price's amount with its currency (code, symbol or neither: dollars), or the problem. */
function readNetPrice(code: string | undefined, amount: string) {
  const named = code?.toUpperCase();
  if (named !== undefined && !isCurrency(named)) {
    return {
      ok: false as const,
      message: `“${code}” is not a currency the shop sells in (${CURRENCY_CODES.join(", ")})`,
    };
  }
  if (/^-/.test(amount.replace(/^\D(?=-)/, "")))
    return { ok: false as const, message: "a net price cannot be negative" };
  const symbols = CURRENCY_CODES.map((each) => CURRENCIES[each].symbol).join("");
  const price = new RegExp(`^([${symbols}])?(\\d{1,7})(?:\\.(\\d{1,2}))?$`).exec(amount);
  if (!price) return { ok: false as const, message: "a net price such as 11.25, €11.25 or EUR 11.25" };
  const bySymbol = price[1] ? CURRENCY_CODES.find((each) => CURRENCIES[each].symbol === price[1]) : undefined;
  if (named && bySymbol && named !== bySymbol) {
    return { ok: false as const, message: `${named} and ${price[1]} name two currencies: write one` };
  }
  const cents = Number(price[2]) * 100 + Number((price[3] ?? "0").padEnd(2, "0"));
  if (cents < 1) return { ok: false as const, message: "a net price is above zero" };
  return { ok: true as const, cents, currency: (named as Currency | undefined) ?? bySymbol ?? HOME_CURRENCY };
}

const percent = (label: string) =>
  z
    .number({ invalid_type_error: `${label} must be a number` })
    .min(0, `${label} cannot be negative`)
    .max(99.99, "A discount of 100 % or more would make prices zero or negative");

/** Reads the rules text; each problem names its line. */
export function parseRules(text: string): { ok: true; rules: GroupRule[] } | { ok: false; message: string } {
  const rules: GroupRule[] = [];
  /** The line each rule came from, for a message about an earlier one. */
  const lineOf: number[] = [];
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  if (lines.length > 100) return { ok: false, message: "At most 100 rules" };
  for (const [index, line] of lines.entries()) {
    const where = `Line ${index + 1}`;
    if (/^part\s/i.test(line)) {
      const net = NET_PRICE.exec(line);
      if (!net) return { ok: false, message: `${where}: write ${RULE_SHAPES}` };
      const price = readNetPrice(net[2], net[3]);
      if (!price.ok) return { ok: false, message: `${where}: ${price.message}` };
      const value = net[1].trim().toUpperCase();
      // Two net prices for one part in one currency: which one the buyer pays would be a guess.
      const twice = rules.findIndex(
        (rule) => rule.kind === "part" && rule.value === value && rule.currency === price.currency,
      );
      if (twice >= 0) {
        return {
          ok: false,
          message: `${where}: ${value} already has a net price in ${CURRENCIES[price.currency].plural} (line ${lineOf[twice]})`,
        };
      }
      rules.push({ kind: "part", value, unitPriceCents: price.cents, currency: price.currency });
      lineOf.push(index + 1);
      continue;
    }
    const match = /^(category|brand)\s+(.+?)\s+(\S+)$/i.exec(line);
    if (!match) return { ok: false, message: `${where}: write ${RULE_SHAPES}` };
    const kind = match[1].toLowerCase() as "category" | "brand";
    const value = match[2].trim();
    const amount = match[3];
    const off = /^-(\d{1,3}(?:\.\d{1,2})?)%$/.exec(amount);
    if (!off) return { ok: false, message: `${where}: a discount such as -8%` };
    const percentOff = Number(off[1]);
    if (percentOff >= 100)
      return { ok: false, message: `${where}: a discount of 100 % or more would make prices zero or negative` };
    if (kind === "category") {
      const category = CATEGORIES.find(
        (id) => id === value.toLowerCase() || CATEGORY_LABELS[id].toLowerCase() === value.toLowerCase(),
      );
      if (!category) return { ok: false, message: `${where}: no category “${value}” (${CATEGORIES.join(", ")})` };
      rules.push({ kind, value: category, percentOff });
    } else rules.push({ kind, value, percentOff });
    lineOf.push(index + 1);
  }
  return { ok: true, rules };
}

export function formatRules(rules: readonly GroupRule[]) {
  return rules
    .map((rule) =>
      rule.kind === "part"
        ? `part ${rule.value} = ${formatCents(rule.unitPriceCents, { currency: rule.currency })}`
        : `${rule.kind} ${rule.value} -${rule.percentOff}%`,
    )
    .join("\n");
}

export const priceGroupSchema = z.object({
  intent: z.literal("save"),
  id: z
    .string()
    .regex(/^[a-f0-9]{24}$/)
    .optional(),
  name: plainText(
    z
      .string({ required_error: "Name the group" })
      .trim()
      .min(2, "Name the group (2 to 60 characters)")
      .max(60, "Name the group (2 to 60 characters)"),
    "A group's name",
  ),
  percentOff: percent("The discount").optional().default(0),
  rules: z
    .string()
    .max(8000, "Keep the rules under 8,000 characters")
    .optional()
    .transform((text, ctx) => {
      const parsed = parseRules(text ?? "");
      if (!parsed.ok) {
        ctx.addIssue({ code: "custom", message: parsed.message });
        return z.NEVER;
      }
      return parsed.rules;
    }),
  stacksWithBreaks: z
    .string()
    .optional()
    .transform((value) => value === "on"),
});

export const deletePriceGroupSchema = z.object({
  intent: z.literal("delete"),
  id: z.string({ required_error: "Choose a group" }).regex(/^[a-f0-9]{24}$/, "Choose a group"),
});

export const priceGroupsSchema = z.discriminatedUnion("intent", [priceGroupSchema, deletePriceGroupSchema]);

/** An EU VAT number as invoices print it: with its country prefix (Greece's is EL). */
const withCountryPrefix = (country: string, id: string) =>
  /^[A-Z]{2}/.test(id) ? id : `${country === "GR" ? "EL" : country}${id}`;

/** A customer's price group and tax details (their record, admins only). */
export const customerPricingSchema = z
  .object({
    intent: z.literal("pricing"),
    priceGroupId: z
      .string()
      .regex(/^[a-f0-9]{24}$/, "Choose a price group")
      .optional(),
    country: z.enum(TAX_COUNTRIES, { errorMap: () => ({ message: "Choose a country" }) }).optional(),
    state: z.string().trim().toUpperCase().optional(),
    vatNumber: plainText(z.string().trim().max(30, "At most 30 characters"), "A VAT number").optional(),
    exemptionCertificate: plainText(
      z.string().trim().max(60, "At most 60 characters"),
      "An exemption certificate",
    ).optional(),
  })
  .superRefine((value, ctx) => {
    if (!value.country) {
      if (value.state || value.vatNumber || value.exemptionCertificate) {
        ctx.addIssue({ path: ["country"], code: "custom", message: "Choose the country these tax details are for" });
      }
      return;
    }
    if (value.country === "US") {
      if (!value.state || !(US_STATES as readonly string[]).includes(value.state)) {
        ctx.addIssue({ path: ["state"], code: "custom", message: "Choose the US state the customer is taxed in" });
      }
    } else if (value.state) {
      ctx.addIssue({ path: ["state"], code: "custom", message: "A state is for US customers only" });
    }
    if (value.vatNumber) {
      if (!isEu(value.country)) {
        ctx.addIssue({ path: ["vatNumber"], code: "custom", message: "A VAT number is for EU customers" });
      } else {
        const problem = taxIdProblem(value.country, value.vatNumber);
        if (problem) ctx.addIssue({ path: ["vatNumber"], code: "custom", message: problem });
      }
    }
    if (value.exemptionCertificate && value.country !== "US") {
      ctx.addIssue({
        path: ["exemptionCertificate"],
        code: "custom",
        message: "An exemption certificate is for US customers",
      });
    }
  })
  .transform((value) => ({
    priceGroupId: value.priceGroupId ?? null,
    tax: value.country
      ? {
          country: value.country,
          state: value.country === "US" ? (value.state ?? null) : null,
          vatNumber: value.vatNumber ? withCountryPrefix(value.country, normalizeTaxId(value.vatNumber)) : null,
          exemptionCertificate: value.exemptionCertificate || null,
        }
      : null,
  }));
