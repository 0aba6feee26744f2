/**
 * The seller's tax rules (docs/behaviour.md, "Tax"): where the seller collects US sales tax and at
 * what rate, its EU VAT registration, and the wording invoices print. Kept as content: an
 * accountant changes rates here, not in code. Rates are percentages (6.25 is 6.25 %).
 */
import { company } from "./company";

/**
 * The seller's own tax identity, printed on every invoice: set these to the company's real
 * registrations before going live (docs/behaviour.md, "Tax"). The shop refuses to start when a
 * number does not fit its country's format (domain/tax.ts). The values here are the demo company's.
 */
export const seller = {
  /** The seller's home country and state (app/content/company.ts): where it is based and taxes at home. */
  country: "US",
  state: company.address.region,
  /** The seller's US tax number (app/content/company.ts), printed on every invoice. */
  taxId: company.taxId,
  /**
   * The seller's EU VAT registration (its Rotterdam distribution warehouse), printed on invoices of
   * EU deliveries beside the buyer's number. Netherlands format: NL, 9 digits, B, 2 digits.
   */
  euVat: { country: "NL", number: "NL859324710B01" },
} as const;

/** US states where the seller is registered to collect sales tax, with the state rate. */
export const US_SALES_TAX: Record<string, number> = {
  MI: 6,
  OH: 5.75,
  IN: 7,
  IL: 6.25,
  WI: 5,
};

/** Standard VAT rates of the EU member states, by ISO country code. */
export const EU_VAT: Record<string, number> = {
  AT: 20,
  BE: 21,
  BG: 20,
  HR: 25,
  CY: 19,
  CZ: 21,
  DK: 25,
  EE: 24,
  FI: 25.5,
  FR: 20,
  DE: 19,
  GR: 24,
  HU: 27,
  IE: 23,
  IT: 22,
  LV: 21,
  LT: 21,
  LU: 17,
  MT: 18,
  NL: 21,
  PL: 23,
  PT: 23,
  RO: 21,
  SK: 23,
  SI: 22,
  ES: 21,
  SE: 25,
};

export const US_STATES = [
  "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "DC", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY",
  "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND", "OH",
  "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY",
] as const; // prettier-ignore

/** The words invoices print when no tax is charged, by reason. */
export const TAX_WORDING = {
  /** Services to a business in another member state; kept for the orders invoiced that way before goods were. */
  reverseCharge:
    "Reverse charge: VAT to be accounted for by the recipient (Article 196, Council Directive 2006/112/EC).",
  intraCommunity:
    "Intra-community supply of goods, exempt from VAT (Article 138(1), Council Directive 2006/112/EC); the buyer accounts for the VAT on the acquisition in its member state.",
  exempt: (certificate: string) => `Exempt from sales tax: resale or exemption certificate ${certificate} on file.`,
  notCollected: (state: string) =>
    `No sales tax charged: the seller does not collect sales tax in ${state}; the buyer may owe use tax.`,
  export:
    "No tax charged: export outside the United States and the EU, exempt from VAT (Article 146(1)(a), Council Directive 2006/112/EC); import duties and taxes are the buyer's.",
} as const;

/** The largest rate the shop accepts anywhere (a rate over 100 % is a typing error). */
export const MAX_TAX_RATE = 100;
