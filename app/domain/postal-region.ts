/**
 * A postal code and the region of the same address must agree (docs/behaviour.md, "Addresses"): tax
 * follows the region, and "Detroit, OR 48243" would pay Oregon's none for a Michigan delivery. The
 * tables are in content/postal-regions.ts; a code they do not place leaves the chosen region alone.
 */
import {
  AU_POSTCODES,
  AU_SHARED_POSTCODES,
  CA_FIRST_LETTER,
  type PostalRange,
  US_ZIP3,
  US_ZIP5,
  US_ZIP_PLACES,
} from "~/content/postal-regions";
import { REGIONS } from "~/content/regions";

const inRanges = (ranges: readonly PostalRange[], value: number) =>
  ranges.find(([first, last]) => value >= first && value <= last)?.[2] ?? null;

/** The state, territory or armed-forces code of a US ZIP code (ZIP+4 too), or null where none is known. */
export function usZipPlace(zip: string): string | null {
  const digits = /^(\d{5})(?:-?\d{4})?$/.exec(zip.trim())?.[1];
  if (!digits) return null;
  return inRanges(US_ZIP5, Number(digits)) ?? inRanges(US_ZIP3, Number(digits.slice(0, 3)));
}

/** The countries that have an ISO code of their own and US ZIP codes (Puerto Rico, Guam, …). */
const ZIP_COUNTRIES = new Set(Object.values(US_ZIP_PLACES).flatMap((place) => (place.country ? [place.country] : [])));

/**
 * The regions (codes of REGIONS[country]) a postal code serves, or, for a country that uses US ZIP codes,
 * the place of the ZIP code. Null where the tables do not place the code.
 */
export function regionsOfPostalCode(country: string, postalCode: string): readonly string[] | null {
  const code = postalCode.trim().toUpperCase();
  if (country === "US" || ZIP_COUNTRIES.has(country)) {
    const place = usZipPlace(code);
    return place ? [place] : null;
  }
  if (country === "CA") return CA_FIRST_LETTER[code.charAt(0)] ?? null;
  if (country === "AU" && /^\d{4}$/.test(code)) {
    const number = Number(code);
    const shared = AU_SHARED_POSTCODES[number];
    if (shared) return shared;
    const place = inRanges(AU_POSTCODES, number);
    return place ? [place] : null;
  }
  return null;
}

const placeName = (country: string, code: string) =>
  REGIONS[country]?.[code] ?? US_ZIP_PLACES[code]?.name ?? REGIONS.US[code] ?? code;
/** Names said with "the": "in the Northern Territory", "in the U.S. Virgin Islands". */
const THE = /^(District|Northern|Northwest|Australian Capital|U\.S\.|Marshall) /;
const inPlaces = (country: string, codes: readonly string[]) =>
  `in ${codes
    .map((code) => placeName(country, code))
    .map((name) => (THE.test(name) ? `the ${name}` : name))
    .join(" or ")}`;
/** For a ZIP code of a place with a country code of its own: which country to choose instead. */
const chooseCountry = (place: string) =>
  place in REGIONS.US
    ? ": choose United States as the country"
    : US_ZIP_PLACES[place]?.country
      ? `: choose ${US_ZIP_PLACES[place].name} as the country`
      : "";

/**
 * Why the postal code and the region (or, for Puerto Rico and the like, the country) of an address do not
 * agree, or null when they do, when the region is not one of the country's list (that has its own
 * message), or when the tables do not place the code.
 */
export function postalRegionProblem(address: { country: string; region: string; postalCode: string }) {
  const { country, postalCode } = address;
  const places = regionsOfPostalCode(country, postalCode);
  if (!places) return null;
  const word = country === "US" || ZIP_COUNTRIES.has(country) ? "ZIP code" : "postal code";
  const code = postalCode.trim().toUpperCase();
  if (ZIP_COUNTRIES.has(country)) {
    if (places.includes(country)) return null;
    return `${code} is a ${word} ${inPlaces("US", places)}, not ${inPlaces("US", [country])}${chooseCountry(places[0])}`;
  }
  const region = address.region.trim().toUpperCase();
  if (!Object.hasOwn(REGIONS[country] ?? {}, region) || places.includes(region)) return null;
  const move = country === "US" && !(places[0] in REGIONS.US) ? chooseCountry(places[0]) : "";
  return `${code} is a ${word} ${inPlaces(country, places)}, not ${inPlaces(country, [region])}${move}`;
}
