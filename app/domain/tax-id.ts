/**
 * VAT and tax numbers by country (docs/behaviour.md, "Company details"). Where a country has a known
 * format the number must match it (spaces, dots and dashes ignored; the country prefix of EU VAT
 * numbers optional when typing); elsewhere any 4 to 20 letters and digits are accepted.
 */
const FORMATS: Record<string, { name: string; pattern?: RegExp; example?: string }> = {
  AT: { name: "Austria", pattern: /^ATU\d{8}$/, example: "ATU12345678" },
  BE: { name: "Belgium", pattern: /^BE[01]\d{9}$/, example: "BE0123456789" },
  BG: { name: "Bulgaria", pattern: /^BG\d{9,10}$/ },
  HR: { name: "Croatia", pattern: /^HR\d{11}$/ },
  CY: { name: "Cyprus", pattern: /^CY\d{8}[A-Z]$/ },
  CZ: { name: "Czechia", pattern: /^CZ\d{8,10}$/ },
  DK: { name: "Denmark", pattern: /^DK\d{8}$/ },
  EE: { name: "Estonia", pattern: /^EE\d{9}$/ },
  FI: { name: "Finland", pattern: /^FI\d{8}$/ },
  FR: { name: "France", pattern: /^FR[A-HJ-NP-Z0-9]{2}\d{9}$/, example: "FR12345678901" },
  DE: { name: "Germany", pattern: /^DE\d{9}$/, example: "DE123456789" },
  GR: { name: "Greece", pattern: /^EL\d{9}$/, example: "EL123456789" },
  HU: { name: "Hungary", pattern: /^HU\d{8}$/ },
  IE: { name: "Ireland", pattern: /^IE(\d{7}[A-W][A-IW]?|\d[A-Z+*]\d{5}[A-W])$/ },
  IT: { name: "Italy", pattern: /^IT\d{11}$/ },
  LV: { name: "Latvia", pattern: /^LV\d{11}$/ },
  LT: { name: "Lithuania", pattern: /^LT(\d{9}|\d{12})$/ },
  LU: { name: "Luxembourg", pattern: /^LU\d{8}$/ },
  MT: { name: "Malta", pattern: /^MT\d{8}$/ },
  NL: { name: "Netherlands", pattern: /^NL\d{9}B\d{2}$/, example: "NL123456789B01" },
  PL: { name: "Poland", pattern: /^PL\d{10}$/ },
  PT: { name: "Portugal", pattern: /^PT\d{9}$/ },
  RO: { name: "Romania", pattern: /^RO\d{2,10}$/ },
  SK: { name: "Slovakia", pattern: /^SK\d{10}$/ },
  SI: { name: "Slovenia", pattern: /^SI\d{8}$/ },
  ES: { name: "Spain", pattern: /^ES[A-Z0-9]\d{7}[A-Z0-9]$/ },
  SE: { name: "Sweden", pattern: /^SE\d{12}$/ },
  GB: { name: "United Kingdom", pattern: /^(GB|XI)(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/, example: "GB123456789" },
  CH: { name: "Switzerland", pattern: /^CHE\d{9}(MWST|TVA|IVA)?$/, example: "CHE-123.456.789 MWST" },
  NO: { name: "Norway", pattern: /^NO\d{9}(MVA)?$/ },
  US: { name: "United States", pattern: /^\d{9}$/, example: "12-3456789 (EIN)" },
  CA: { name: "Canada", pattern: /^\d{9}(RT\d{4})?$/, example: "123456789RT0001" },
  AU: { name: "Australia", pattern: /^\d{11}$/, example: "51824753556 (ABN)" },
  MX: { name: "Mexico" },
  JP: { name: "Japan" },
  OTHER: { name: "Another country" },
};

export const TAX_COUNTRIES = Object.keys(FORMATS) as [string, ...string[]];
export const COUNTRY_OPTIONS = TAX_COUNTRIES.map((code) => ({ code, name: FORMATS[code].name }));
export const countryName = (code: string | null | undefined) => (code ? (FORMATS[code]?.name ?? code) : "");

/** Upper case, without spaces, dots and dashes. */
export function normalizeTaxId(value: string) {
  return value.toUpperCase().replace(/[\s.-]/g, "");
}

/** A message when the number does not fit the country's format, else null. */
export function taxIdProblem(country: string | undefined, value: string): string | null {
  const id = normalizeTaxId(value);
  if (!/^[A-Z0-9+*]{4,20}$/.test(id)) return "Enter 4 to 20 letters and digits";
  if (!country) return "Choose the country of the tax number";
  const format = FORMATS[country];
  if (!format?.pattern) return null;
  // EU VAT numbers may be typed without their country prefix.
  const prefix = country === "GR" ? "EL" : country;
  const candidates =
    /^[A-Z]{2}/.test(id) || !/^[A-Z]{2}$/.test(prefix) || ["US", "CA", "AU"].includes(country)
      ? [id]
      : [id, `${prefix}${id}`];
  if (candidates.some((candidate) => format.pattern!.test(candidate))) return null;
  return `This is not a valid ${format.name} VAT or tax number${format.example ? ` (for example ${format.example})` : ""}`;
}
