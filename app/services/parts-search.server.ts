import { unstable_coerceFormValue as coerceFormValue } from "@conform-to/zod";
import { z } from "zod";
import { findMake, findModel, FIRST_MODEL_YEAR, LAST_MODEL_YEAR } from "~/content/vehicles";
import { PART_CURSOR_PATTERN } from "~/models/part-keyset.server";
import { type CatalogueFilters } from "~/models/part-query-plan.server";
import { BRAND_MAX_LENGTH, CATEGORIES, type Category } from "~/domain/catalogue";
import { PART_SORTS, SEARCH_MAX_LENGTH } from "~/domain/search";
import { parseForm } from "./form.server";

/** Far beyond any real catalogue; keeps skip() within sane bounds. */
export const MAX_PAGE = 100_000;

/**
 * The /parts search form (text, sort, filters, vehicle) plus the page. A bad sort or page falls
 * back to the default, as a hand-edited link should still show something; an over-long search,
 * an unknown category or make and an impossible year are errors shown on the page (400). A
 * model that is not the chosen make's (the make was changed without JavaScript) is dropped, as is
 * a year the model was not built in. Server-side only: in the browser the fields' native
 * constraints are the whole check, which keeps zod out of the page's JavaScript.
 */
export const partsSearchSchema = z.object({
  q: z.string().max(SEARCH_MAX_LENGTH, `Search for ${SEARCH_MAX_LENGTH} characters at most`).optional(),
  sort: z.enum(PART_SORTS).catch("newest"),
  page: z.number().int().min(1).max(MAX_PAGE).catch(1),
  /** Cursors carried by the Previous/Next links (see listPartCards); anything else is ignored. */
  after: z.string().regex(PART_CURSOR_PATTERN).optional().catch(undefined),
  before: z.string().regex(PART_CURSOR_PATTERN).optional().catch(undefined),
  category: z
    .string()
    .refine(
      (value): value is Category => (CATEGORIES as readonly string[]).includes(value),
      "There is no such category",
    )
    .optional(),
  brand: z.string().max(BRAND_MAX_LENGTH, "There is no such brand").optional(),
  /** "in": in stock only. */
  stock: z.literal("in").optional().catch(undefined),
  make: z
    .string()
    .max(40, "We do not list that make")
    .refine((value) => Boolean(findMake(value)), "We do not list that make")
    .optional(),
  model: z.string().max(40).optional().catch(undefined),
  year: z
    .number({ invalid_type_error: `Choose a year from ${FIRST_MODEL_YEAR} to ${LAST_MODEL_YEAR}` })
    .int(`Choose a year from ${FIRST_MODEL_YEAR} to ${LAST_MODEL_YEAR}`)
    .min(FIRST_MODEL_YEAR, `Choose a year from ${FIRST_MODEL_YEAR} to ${LAST_MODEL_YEAR}`)
    .max(LAST_MODEL_YEAR, `Choose a year from ${FIRST_MODEL_YEAR} to ${LAST_MODEL_YEAR}`)
    .optional(),
});

export type PartsSearch = z.infer<typeof partsSearchSchema>;

/**
 * Conform turns form strings into numbers and empty strings into undefined by wrapping the schema,
 * on every parse by default; /parts parses on every request, so it is wrapped once here.
 */
const coercedPartsSearchSchema = coerceFormValue(partsSearchSchema);

export function parsePartsSearch(searchParams: URLSearchParams) {
  return parseForm(searchParams, { schema: coercedPartsSearchSchema, disableAutoCoercion: true });
}

/** The picked vehicle as far as it goes: a make, then its model, then a year the model was built. */
export function pickedVehicle({
  make: makeName,
  model: modelName,
  year,
}: Pick<PartsSearch, "make" | "model" | "year">) {
  const make = findMake(makeName);
  if (!make) return null;
  const model = findModel(make, modelName);
  if (!model) return { make: make.name, model: null, year: null };
  const built = year !== undefined && year >= model.from && year <= model.to;
  return { make: make.name, model: model.name, year: built ? year : null };
}

/** The search's filters, as the catalogue queries take them. */
export function searchFilters(search: PartsSearch): CatalogueFilters {
  return {
    category: search.category ?? null,
    brand: search.brand?.trim() || null,
    inStock: search.stock === "in",
    vehicle: pickedVehicle(search),
  };
}
