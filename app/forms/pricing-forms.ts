/** The forms of prices and tax: a price group (admins' Price Groups) and a customer's prices and tax. */
import { z } from "zod";
import { US_STATES } from "~/content/tax-rates";
import { CATEGORIES, CATEGORY_LABELS } from "~/domain/catalogue";
import { HOME_CURRENCY } from "~/domain/money";
import type { GroupRule } from "~/domain/pricing";
import { isEu } from "~/domain/tax";
import { normalizeTaxId, TAX_COUNTRIES, taxIdProblem } from "~/domain/tax-id";
import { plainText } from "~/domain/plain-text";

export const RULES_HELP =
  "One rule a line: “category brakes -8%”, “brand Nordwerk -10%”, or a net price for a part number, “part PW-1001 11.25”.";

const percent = (label: string) =>
  z
    .number({ invalid_type_error: `${label} must be a number` })
    .min(0, `${label} cannot be negative`)
    .max(99.99, "A discount of 100 % or more would make prices zero or negative");

/** Reads the rules text; each problem names its line. */
export function parseRules(text: string): { ok: true; rules: GroupRule[] } | { ok: false; message: string } {
  const rules: GroupRule[] = [];
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  if (lines.length > 100) return { ok: false, message: "At most 100 rules" };
  for (const [index, line] of lines.entries()) {
    const where = `Line ${index + 1}`;
    const match = /^(category|brand|part)\s+(.+?)\s+(\S+)$/i.exec(line);
    if (!match)
      return {
        ok: false,
        message: `${where}: write “category brakes -8%”, “brand Nordwerk -10%” or “part PW-1001 11.25”`,
      };
    const kind = match[1].toLowerCase() as GroupRule["kind"];
    const value = match[2].trim();
    const amount = match[3];
    if (kind === "part") {
      if (/^-/.test(amount)) return { ok: false, message: `${where}: a net price cannot be negative` };
      const price = /^\$?(\d{1,7})(?:\.(\d{1,2}))?$/.exec(amount);
      if (!price) return { ok: false, message: `${where}: a net price such as 11.25` };
      const cents = Number(price[1]) * 100 + Number((price[2] ?? "0").padEnd(2, "0"));
      if (cents < 1) return { ok: false, message: `${where}: a net price is above zero` };
      rules.push({ kind, value: value.toUpperCase(), unitPriceCents: cents, currency: HOME_CURRENCY });
      continue;
    }
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
  }
  return { ok: true, rules };
}

export function formatRules(rules: readonly GroupRule[]) {
  return rules
    .map((rule) =>
      rule.kind === "part"
        ? `part ${rule.value} ${(rule.unitPriceCents / 100).toFixed(2)}`
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
