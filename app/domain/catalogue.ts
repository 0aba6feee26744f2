/**
 * The catalogue's vocabulary and its normalisation rules, shared by the model (stored search
 * keys), the /parts search and the admin forms: categories, brands, part-number keys, search words
 * and vehicle keys.
 */
import { findMake, findModel, type Vehicle } from "~/content/vehicles";
import type { PriceList, VolumeBreak } from "./pricing";

export const CATEGORIES = [
  "brakes",
  "filters",
  "ignition",
  "engine",
  "cooling",
  "electrical",
  "lighting",
  "suspension",
  "steering",
  "transmission",
  "exhaust",
  "wipers",
  "other",
] as const;
export type Category = (typeof CATEGORIES)[number];

export const CATEGORY_LABELS: Record<Category, string> = {
  brakes: "Brakes",
  filters: "Filters",
  ignition: "Ignition",
  engine: "Engine",
  cooling: "Cooling",
  electrical: "Electrical",
  lighting: "Lighting",
  suspension: "Suspension",
  steering: "Steering",
  transmission: "Transmission",
  exhaust: "Exhaust",
  wipers: "Wipers",
  other: "Other parts",
};

export function isCategory(value: unknown): value is Category {
  return typeof value === "string" && (CATEGORIES as readonly string[]).includes(value);
}

/** The manufacturer's own line, and the default brand of a part. */
export const DEFAULT_BRAND = "PartsWorks";
export const BRAND_MAX_LENGTH = 40;
export const MAX_OE_NUMBERS = 20;
export const MAX_FITMENT_ROWS = 50;

/**
 * A part number or cross-reference as a key: upper case, letters and digits only, so "pw 1012",
 * "PW-1012" and "pw1012" are the same number.
 */
export function partNumberKey(value: string | null | undefined) {
  return (value ?? "")
    .normalize("NFKD")
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "");
}

/** Units written after a number, joined or apart ("10mm", "10 mm"; "40A"; "12V"; "55W"; "1/2in" as "2in"). */
export const JOINED_UNIT = /^(\d+)(mm|cm|m|in|inch|ft|a|amp|amps|ah|mah|w|kw|v|hp|nm|l|ml|psi|bar|kg|g|lb|lbs|oz)$/;

/**
 * The words of a text, lower case, accents folded: what word-prefix search matches against. A number
 * joined to its unit is two words, as it is written apart, so either way finds the other.
 */
export function searchWords(text: string | null | undefined) {
  const folded = (text ?? "")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();
  const words = folded.split(/[^a-z0-9]+/).flatMap((word) => {
    const unit = JOINED_UNIT.exec(word);
    return unit ? [unit[1], unit[2]] : [word];
  });
  return [...new Set(words.filter(Boolean))];
}

/** Search terms longer than this are cut to it, on the part and in what was typed alike. */
export const SEARCH_TERM_MAX_LENGTH = 20;

const cut = (word: string) => word.slice(0, SEARCH_TERM_MAX_LENGTH);

/**
 * A part's searchable words: those of its name, brand and category, and of its part number and
 * OE numbers, each whole as a key and piece by piece ("PW-1012": "pw1012", "pw" and "1012"), cut
 * to SEARCH_TERM_MAX_LENGTH.
 */
export function partSearchWords(text: string, numbers: readonly string[]) {
  const words = [
    ...searchWords(text),
    ...numbers.flatMap((number) => [...searchWords(number), partNumberKey(number).toLowerCase()]),
  ];
  return [...new Set(words.filter(Boolean).map(cut))];
}

/**
 * A part's search terms: every prefix of every one of its searchable words, so that a search is
 * an equality on one indexed array ("brak" is a term of "Brake pads"; "pw", "10" and "pw10" are
 * terms of PW-1012) and the database can read it in the order of the page.
 */
export function searchTerms(words: readonly string[]) {
  const terms = new Set<string>();
  for (const word of words) {
    for (let length = 1; length <= word.length; length++) terms.add(word.slice(0, length));
  }
  return [...terms];
}

/**
 * What was typed as the terms a part must have, all of them, longest first (the database narrows
 * by the first). A number typed with dashes or spaces works as its pieces ("PW 1012": "pw" and
 * "1012", both terms of PW-1012). Empty when nothing searchable was typed.
 */
export function queryTerms(text: string) {
  return [...new Set(searchWords(text).map(cut))].sort((a, b) => b.length - a.length);
}

const keyPart = (value: string) => value.trim().toLowerCase();

/** The key of a vehicle (or of a make, or a make and model) in a part's `vehicleKeys`. */
export function vehicleKey({ make, model, year }: { make: string; model?: string | null; year?: number | null }) {
  if (!model) return keyPart(make);
  if (!year) return `${keyPart(make)}|${keyPart(model)}`;
  return `${keyPart(make)}|${keyPart(model)}|${year}`;
}

export type FitmentRow = { make: string; model: string; yearFrom: number; yearTo: number; engine?: string | null };

/** Every key a fitment list answers to: the make, the make and model, and each year. */
export function fitmentKeys(fitment: readonly FitmentRow[]) {
  const keys = new Set<string>();
  for (const row of fitment) {
    keys.add(vehicleKey({ make: row.make }));
    keys.add(vehicleKey({ make: row.make, model: row.model }));
    for (let year = row.yearFrom; year <= row.yearTo; year++) {
      keys.add(vehicleKey({ make: row.make, model: row.model, year }));
    }
  }
  return [...keys];
}

export function fitsVehicle(fitment: readonly FitmentRow[], vehicle: Vehicle) {
  return fitment.some(
    (row) =>
      keyPart(row.make) === keyPart(vehicle.make) &&
      keyPart(row.model) === keyPart(vehicle.model) &&
      row.yearFrom <= vehicle.year &&
      vehicle.year <= row.yearTo,
  );
}

export function formatFitmentRow(row: FitmentRow) {
  const years = row.yearFrom === row.yearTo ? `${row.yearFrom}` : `${row.yearFrom}-${row.yearTo}`;
  return [row.make, row.model, years, row.engine].filter(Boolean).join(" ");
}

/**
 * One line of the admin's fitment list: "Volkswagen Golf 2013-2020 1.4 TSI" (make, model, a year
 * or a year range, then an optional engine). Make and model must be in the vehicle list; the
 * years must lie within the model's production years.
 */
export function parseFitmentLine(line: string): { ok: true; row: FitmentRow } | { ok: false; message: string } {
  const text = line.replace(/\s+/g, " ").trim();
  const match = /^(.+?) (\d{4})(?:\s*[-–]\s*(\d{4}))?(?: (.+))?$/.exec(text);
  if (!match)
    return {
      ok: false,
      message: `“${text}”: write make, model, years and an optional engine, e.g. Volkswagen Golf 2013-2020 1.4 TSI`,
    };
  const [, vehicle, fromText, toText, engine] = match;
  const words = vehicle.split(" ");
  for (let split = words.length - 1; split >= 1; split--) {
    const make = findMake(words.slice(0, split).join(" "));
    const model = findModel(make, words.slice(split).join(" "));
    if (!make || !model) continue;
    const yearFrom = Number(fromText);
    const yearTo = Number(toText ?? fromText);
    if (yearFrom > yearTo) return { ok: false, message: `“${text}”: the first year comes after the last` };
    if (yearFrom < model.from || yearTo > model.to) {
      return {
        ok: false,
        message: `“${text}”: the ${make.name} ${model.name} was built from ${model.from} to ${model.to}`,
      };
    }
    if (engine && engine.length > 40) return { ok: false, message: `“${text}”: the engine is 40 characters at most` };
    return { ok: true, row: { make: make.name, model: model.name, yearFrom, yearTo, engine: engine ?? null } };
  }
  const make = findMake(words[0]) ?? findMake(words.slice(0, 2).join(" "));
  return {
    ok: false,
    message: make
      ? `“${text}”: ${make.name} has no model called that (${make.models.map((model) => model.name).join(", ")})`
      : `“${text}”: unknown make`,
  };
}

/** A part as screens use it: plain, with a string id. */
export type PartView = {
  id: string;
  name: string;
  partNumber: string;
  description: string;
  img: string;
  priceCents: number;
  minOrderQuantity: number;
  availableQuantity: number;
  createdAt: string;
  category: string;
  brand: string;
  volumeBreaks: VolumeBreak[];
  /** Price lists in other currencies (pricing.ts, inCurrency): none, the part sells in dollars only. */
  prices: PriceList[];
  backorderable: boolean;
  /** The day stock is expected (YYYY-MM-DD), or null; with leadTimeDays for when none is set. */
  restockOn: string | null;
  leadTimeDays: number | null;
};
