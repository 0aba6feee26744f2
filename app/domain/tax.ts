/**
 * The tax on an order, from the buyer's recorded tax details and the seller's rules in
 * app/content/tax-rates.ts (docs/behaviour.md, "Tax"). Pure: the server decides it when an order is
 * placed and freezes the lines on the order; screens show what is stored.
 */
import { z } from "zod";
import { EU_VAT, MAX_TAX_RATE, seller, TAX_WORDING, US_SALES_TAX } from "~/content/tax-rates";
import { taxIdProblem } from "./tax-id";

/** A buyer's tax details, kept in the customer's account (set by an admin on the customer's record). */
export type TaxProfile = {
  country: string;
  /** A US state, two letters (US buyers only). */
  state: string | null;
  /** A VAT number (EU business buyers), checked against the country's format. */
  vatNumber: string | null;
  /** A resale or exemption certificate on file (US buyers). */
  exemptionCertificate: string | null;
};

export const TAX_KINDS = [
  "sales-tax",
  "vat",
  "reverse-charge",
  "exempt",
  "not-collected",
  "export",
  "unknown",
] as const;
export type TaxKind = (typeof TAX_KINDS)[number];

/** One tax line of an order: a rate on a base, or no tax with the lawful reason. */
export type TaxLine = {
  kind: TaxKind;
  /** "Michigan sales tax 6%", "VAT DE 19%", "Reverse charge". */
  label: string;
  rate: number;
  baseCents: number;
  amountCents: number;
  /** Why no tax is charged (reverse charge, exemption, …); null when tax is charged. */
  note: string | null;
};

const rateSchema = z
  .number()
  .min(0, "A tax rate cannot be negative")
  .max(MAX_TAX_RATE, `A tax rate is at most ${MAX_TAX_RATE} %`);
/** The seller's rate tables, checked when the shop starts: a rate over 100 % is refused. */
export const rateTableSchema = z.record(z.string().regex(/^[A-Z]{2}$/), rateSchema);
rateTableSchema.parse(US_SALES_TAX);
rateTableSchema.parse(EU_VAT);

export const isEu = (country: string) => country in EU_VAT;

/** A rate applied to a base, rounded to the cent (half up) once per order. */
export function taxOn(baseCents: number, rate: number) {
  return Math.round((baseCents * Math.round(rate * 1000)) / 100_000);
}

const rateWords = (rate: number) => `${rate}%`;

/** Whether the VAT number is recorded and fits its country's format. */
export function validVat(profile: TaxProfile) {
  return Boolean(profile.vatNumber && isEu(profile.country) && !taxIdProblem(profile.country, profile.vatNumber));
}

/** The order's tax lines on its net total. */
export function taxLinesFor(profile: TaxProfile | null, netCents: number): TaxLine[] {
  const none = (kind: TaxKind, label: string, note: string): TaxLine[] => [
    { kind, label, rate: 0, baseCents: netCents, amountCents: 0, note },
  ];
  if (!profile?.country) return none("unknown", "No tax", TAX_WORDING.unknown);
  if (profile.country === seller.country) {
    const state = profile.state ?? "";
    const rate = US_SALES_TAX[state];
    if (rate === undefined)
      return none("not-collected", "No sales tax", TAX_WORDING.notCollected(state || "that state"));
    if (profile.exemptionCertificate) {
      return none("exempt", "Tax exempt", TAX_WORDING.exempt(profile.exemptionCertificate));
    }
    return [
      {
        kind: "sales-tax",
        label: `${state} sales tax ${rateWords(rate)}`,
        rate,
        baseCents: netCents,
        amountCents: taxOn(netCents, rate),
        note: null,
      },
    ];
  }
  if (isEu(profile.country)) {
    // A business in another member state accounts for the VAT itself; at home, or a consumer, pays it.
    if (profile.country !== seller.euVat.country && validVat(profile)) {
      return none("reverse-charge", "Reverse charge", TAX_WORDING.reverseCharge);
    }
    const rate = EU_VAT[profile.country];
    return [
      {
        kind: "vat",
        label: `VAT ${profile.country} ${rateWords(rate)}`,
        rate,
        baseCents: netCents,
        amountCents: taxOn(netCents, rate),
        note: null,
      },
    ];
  }
  return none("export", "No tax (export)", TAX_WORDING.export);
}

export const taxTotal = (lines: readonly TaxLine[]) => lines.reduce((sum, line) => sum + line.amountCents, 0);
