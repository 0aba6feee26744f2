/**
 * The tax on an order, from the buyer's recorded tax details and the seller's rules in
 * app/content/tax-rates.ts (docs/behaviour.md, "Tax"). Pure: the server decides it when an order is
 * placed and freezes the lines on the order; screens show what is stored.
 */
import { z } from "zod";
import { EU_VAT, MAX_TAX_RATE, seller, TAX_WORDING, US_SALES_TAX, US_STATES } from "~/content/tax-rates";
import { countryLabel } from "./address";
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
  /** Services to a business in another member state (Article 196); goods are an intra-community supply. Never decided now. */
  "reverse-charge",
  /** Goods dispatched from the seller's EU warehouse to a VAT-registered business in another member state (Article 138). */
  "intra-community",
  "exempt",
  "not-collected",
  "export",
  /** Orders placed before every order was taxed by its delivery place; never decided now. */
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

/** The seller's identity must be a real registration, not a placeholder: checked when the shop starts. */
export const sellerIdentitySchema = z.object({
  country: z.literal("US"),
  state: z.enum(US_STATES),
  taxId: z.string().regex(/^EIN \d{2}-\d{7}$/, "The seller's tax number is an EIN: EIN 12-3456789"),
  euVat: z.object({ country: z.string().regex(/^[A-Z]{2}$/), number: z.string() }).superRefine((vat, ctx) => {
    if (!(vat.country in EU_VAT)) ctx.addIssue({ code: "custom", message: `${vat.country} is not an EU country` });
    const problem = taxIdProblem(vat.country, vat.number);
    if (problem || !vat.number.startsWith(vat.country)) {
      ctx.addIssue({
        code: "custom",
        path: ["number"],
        message: problem ?? "Write the number with its country prefix",
      });
    }
  }),
});
sellerIdentitySchema.parse(seller);

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

/** Where the goods go, as tax sees it: a country and, in the US, a state; and where that was read. */
export type TaxPlace = {
  country: string;
  state: string | null;
  /** The delivery address's fields; else the tax location an admin recorded on the account; else the seller's own state. */
  from: "address" | "account" | "seller";
};

/**
 * Where an order is taxed: the delivery address's country and region (its fields, never its text);
 * without a delivery address yet (a visitor's part page, a cart before an address is chosen), the tax
 * location an admin recorded on the account; else the seller's own state. A company's own country,
 * which its customers set themselves, never decides it.
 */
export function taxPlaceFor(
  profile: TaxProfile | null,
  delivery?: { country: string; region: string } | null,
): TaxPlace {
  if (delivery?.country) {
    const state = delivery.country === seller.country ? delivery.region.toUpperCase() || null : null;
    return { country: delivery.country, state, from: "address" };
  }
  if (profile?.country) {
    return {
      country: profile.country,
      state: profile.country === seller.country ? (profile.state ?? seller.state) : null,
      from: "account",
    };
  }
  return { country: seller.country, state: seller.state, from: "seller" };
}

/** "Michigan, US" or "Germany": the place as the cart and the checkout name it. */
export function placeWords(place: { country: string; state: string | null }) {
  return place.country === seller.country && place.state
    ? `${place.state}, ${countryLabel(place.country)}`
    : countryLabel(place.country);
}

/**
 * The order's tax lines on its net total, for goods going to `place`. Only two things remove tax
 * that the place would charge: a resale or exemption certificate on file (US deliveries), and a
 * valid VAT number of a business in another EU country than the seller's (EU deliveries outside it).
 */
export function taxLinesFor(profile: TaxProfile | null, netCents: number, place: TaxPlace): TaxLine[] {
  const none = (kind: TaxKind, label: string, note: string): TaxLine[] => [
    { kind, label, rate: 0, baseCents: netCents, amountCents: 0, note },
  ];
  if (place.country === seller.country) {
    const state = place.state ?? seller.state;
    const rate = US_SALES_TAX[state];
    if (rate === undefined) return none("not-collected", "No sales tax", TAX_WORDING.notCollected(state));
    if (profile?.exemptionCertificate && profile.country === seller.country) {
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
  if (isEu(place.country)) {
    // Goods to a business in another member state are an intra-community supply: it accounts for the
    // VAT on its acquisition; at home, or a consumer, pays it.
    if (
      place.country !== seller.euVat.country &&
      profile &&
      profile.country !== seller.euVat.country &&
      validVat(profile)
    ) {
      return none("intra-community", "Intra-community supply", TAX_WORDING.intraCommunity);
    }
    const rate = EU_VAT[place.country];
    return [
      {
        kind: "vat",
        label: `VAT ${place.country} ${rateWords(rate)}`,
        rate,
        baseCents: netCents,
        amountCents: taxOn(netCents, rate),
        note: null,
      },
    ];
  }
  return none("export", "No tax (export)", TAX_WORDING.export);
}

/**
 * An intra-community supply is invoiced when its goods ship (docs/decisions/0010-invoice-at-shipping.md):
 * the invoice must give the day of the supply, which is not known before.
 */
export const invoicedOnShipping = (lines: readonly { kind?: string }[]) =>
  lines.some((line) => line.kind === "intra-community");

export const taxTotal = (lines: readonly TaxLine[]) => lines.reduce((sum, line) => sum + line.amountCents, 0);
