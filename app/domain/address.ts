/**
 * Postal addresses with fields (docs/behaviour.md, "Addresses"): name, company, two street lines, city,
 * region (a list for the countries in content/regions.ts), postal code (checked by postcode-validator
 * where the country's format is known) and an ISO 3166 country (content/countries.ts). Shared by the
 * forms, the API and the server; the tax place is read from `country` and `region` only (tax.ts).
 */
import { isPlainText, plainTextMessage } from "./plain-text";
import { postcodeValidator, postcodeValidatorExistsForCountry } from "postcode-validator";
import { z } from "zod";
import { COUNTRY_NAMES } from "~/content/countries";
import { REGIONS } from "~/content/regions";
import { postalRegionProblem } from "./postal-region";

export type PostalAddress = {
  name: string;
  company: string;
  line1: string;
  line2: string;
  city: string;
  /** A code of REGIONS[country] where the country has a list, else free text or "". */
  region: string;
  postalCode: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
};

export const ADDRESS_LINE_MAX = 100;

const names: Record<string, string> = Object.fromEntries(COUNTRY_NAMES);
/** Every ISO 3166 country, by English name, for the country list of every address form. */
export const COUNTRIES = COUNTRY_NAMES.map(([code, name]) => ({ code, name }));

export const isCountry = (code: string) => code in names;
export const countryLabel = (code: string) => names[code] ?? code;
export const regionsOf = (country: string): Record<string, string> | null => REGIONS[country] ?? null;
export const regionLabel = (country: string, region: string) => regionsOf(country)?.[region] ?? region;
/** What the region is called in the country's addresses. */
export const regionWord = (country: string) =>
  country === "US" ? "State" : country === "CA" ? "Province" : country === "AU" ? "State or territory" : "Region";
export const postalWord = (country: string) => (country === "US" ? "ZIP code" : "Postal code");
export const hasPostalFormat = (country: string) => postcodeValidatorExistsForCountry(country);

// HTML never belongs in an address line; nor do control or invisible characters (plain text).
const HTML = /[<>]/;

function line(label: string, { required }: { required: boolean }) {
  const text = z
    .string({ invalid_type_error: `${label} must be text` })
    .max(ADDRESS_LINE_MAX * 4, `${label} must be ${ADDRESS_LINE_MAX} characters or fewer`)
    .refine((value) => isPlainText(value), plainTextMessage(label))
    .transform((value) => value.trim().replace(/\s+/g, " "))
    .refine((value) => value.length <= ADDRESS_LINE_MAX, `${label} must be ${ADDRESS_LINE_MAX} characters or fewer`)
    .refine((value) => !HTML.test(value), "Use plain text: < and > are not allowed");
  return required
    ? z
        .string({ required_error: `${label} is Required`, invalid_type_error: `${label} must be text` })
        .pipe(text)
        .refine((value) => value.length > 0, `${label} is Required`)
    : text.optional().transform((value) => value ?? "");
}

export const postalAddressObject = z.object({
  name: line("Name", { required: false }),
  company: line("Company", { required: false }),
  line1: line("Street address", { required: true }),
  line2: line("Address line 2", { required: false }),
  city: line("City", { required: true }),
  region: line("State or region", { required: false }),
  postalCode: line("Postal code", { required: false }).transform((value) => value.toUpperCase()),
  country: z
    .string({ required_error: "Choose a country", invalid_type_error: "Choose a country" })
    .trim()
    .toUpperCase()
    .refine(isCountry, "Choose a country from the list"),
});

/**
 * The checks across fields: a region of the country's list, a postal code of the country's format, and
 * a postal code of that region (domain/postal-region.ts).
 */
export function checkAddress(value: z.infer<typeof postalAddressObject>, ctx: z.RefinementCtx) {
  const regions = regionsOf(value.country);
  if (!regions && value.region) {
    ctx.addIssue({
      code: "custom",
      path: ["region"],
      message: `${value.region} is not a region of ${countryLabel(value.country)}: leave the state or region empty`,
    });
  }
  if (regions) {
    const code = value.region.toUpperCase();
    if (!value.region) {
      ctx.addIssue({
        code: "custom",
        path: ["region"],
        message: `Choose a ${regionWord(value.country).toLowerCase()}`,
      });
    } else if (!(code in regions)) {
      ctx.addIssue({
        code: "custom",
        path: ["region"],
        message: `${value.region} is not a ${regionWord(value.country).toLowerCase()} of ${countryLabel(value.country)}`,
      });
    }
  }
  if (hasPostalFormat(value.country)) {
    if (!value.postalCode) {
      ctx.addIssue({ code: "custom", path: ["postalCode"], message: `${postalWord(value.country)} is Required` });
    } else if (!postcodeValidator(value.postalCode, value.country)) {
      ctx.addIssue({
        code: "custom",
        path: ["postalCode"],
        message: `${value.postalCode} is not a ${postalWord(value.country).toLowerCase()} of ${countryLabel(value.country)}`,
      });
    } else {
      const problem = postalRegionProblem(value);
      if (problem) ctx.addIssue({ code: "custom", path: ["postalCode"], message: problem });
    }
  }
}

/** A structured address as forms post it (`delivery.city`, …) and the API sends it. */
export const postalAddressSchema = postalAddressObject.superRefine(checkAddress).transform((value): PostalAddress => ({
  ...value,
  region: regionsOf(value.country) ? value.region.toUpperCase() : value.region,
}));

/**
 * An address missing altogether (no field posted) reads as an empty one, so each field says what it
 * needs. Typed as the schema itself: the preprocess changes no value's type, only fills in a missing one.
 */
export const postalAddressField = z.preprocess(
  (value) => value ?? {},
  postalAddressSchema,
) as unknown as typeof postalAddressSchema;

/** The address as printed on a label, line by line (documents, mail, lists). */
export function addressLines(address: PostalAddress): string[] {
  const { country } = address;
  const place =
    country === "US" || country === "CA" || country === "AU"
      ? `${address.city}, ${address.region} ${address.postalCode}`
      : country === "GB"
        ? `${address.city} ${address.postalCode}`
        : `${address.postalCode} ${address.city}${address.region ? `, ${address.region}` : ""}`;
  return [address.name, address.company, address.line1, address.line2, place.trim(), countryLabel(country)].filter(
    Boolean,
  );
}

export const formatAddress = (address: PostalAddress) => addressLines(address).join("\n");

/** The countries with a list of regions, for the one region list of every form (grouped by country). */
export const REGION_GROUPS = Object.entries(REGIONS).map(([country, regions]) => ({
  country,
  regions: Object.entries(regions).map(([code, name]) => ({ code, name })),
}));

export const EMPTY_ADDRESS: PostalAddress = {
  name: "",
  company: "",
  line1: "",
  line2: "",
  city: "",
  region: "",
  postalCode: "",
  country: "",
};

const US_PLACE = /^(.+?),\s*([A-Z]{2})\s+(\d{5}(?:-\d{4})?)$/;
/** A state and ZIP code anywhere else in the text makes the reading uncertain (which one is meant?). */
const OTHER_PLACE = /\b[A-Z]{2}\s+\d{5}\b/;
const US_NAMES = new Set(["US", "USA", "U.S.A.", "U.S.", "UNITED STATES", "UNITED STATES OF AMERICA"]);

/**
 * Reads a free-text address typed before addresses had fields, only where that is certain: one or two
 * street lines, then "City, ST 12345" with a real US state and a ZIP code of that state, optionally "USA"
 * last. Anything else returns `certain: false` with the first lines placed, for the customer to complete
 * and confirm.
 */
export function parseLegacyAddress(text: string): { address: PostalAddress; certain: boolean } {
  const lines = text
    .split(/\r?\n/)
    .map((piece) => piece.trim().replace(/\s+/g, " ").slice(0, ADDRESS_LINE_MAX))
    .filter(Boolean);
  if (lines.length > 1 && US_NAMES.has(lines.at(-1)!.toUpperCase())) lines.pop();
  const last = lines.at(-1) ?? "";
  const match = US_PLACE.exec(last);
  const street = lines.slice(0, -1);
  if (
    match &&
    match[2] in REGIONS.US &&
    !postalRegionProblem({ country: "US", region: match[2], postalCode: match[3] }) &&
    street.length >= 1 &&
    street.length <= 2 &&
    lines.every((piece) => isPlainText(piece)) &&
    !street.some((piece) => OTHER_PLACE.test(piece.toUpperCase()))
  ) {
    return {
      address: {
        ...EMPTY_ADDRESS,
        line1: street[0],
        line2: street[1] ?? "",
        city: match[1].replace(/,$/, "").trim(),
        region: match[2],
        postalCode: match[3],
        country: "US",
      },
      certain: true,
    };
  }
  return {
    address: { ...EMPTY_ADDRESS, line1: lines[0] ?? "", line2: lines.slice(1).join(", ").slice(0, ADDRESS_LINE_MAX) },
    certain: false,
  };
}
