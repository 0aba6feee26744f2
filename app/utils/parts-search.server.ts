import { parseWithZod, unstable_coerceFormValue as coerceFormValue } from "@conform-to/zod";
import { z } from "zod";
import { PART_CURSOR_PATTERN } from "~/models/part.server";
import { PART_SORTS, SEARCH_MAX_LENGTH } from "./search";

/** Far beyond any real catalogue; keeps skip() within sane bounds. */
export const MAX_PAGE = 100_000;

/**
 * The /parts search form (q and sort) plus the page. A bad sort or page falls back to the default,
 * as a hand-edited link should still show something; an over-long search is an error next to the
 * field. Server-side only: in the browser the field's native maxLength (the same constant) is the
 * whole check, which keeps zod out of the page's JavaScript.
 */
export const partsSearchSchema = z.object({
  q: z
    .string()
    .max(SEARCH_MAX_LENGTH, `Search for ${SEARCH_MAX_LENGTH} characters at most`)
    .optional(),
  sort: z.enum(PART_SORTS).catch("newest"),
  page: z.number().int().min(1).max(MAX_PAGE).catch(1),
  /** Cursors carried by the Previous/Next links (see listPartCards); anything else is ignored. */
  after: z.string().regex(PART_CURSOR_PATTERN).optional().catch(undefined),
  before: z.string().regex(PART_CURSOR_PATTERN).optional().catch(undefined),
});

/**
 * Conform turns form strings into numbers and empty strings into undefined by wrapping the schema,
 * on every parse by default; /parts parses on every request, so it is wrapped once here.
 */
const coercedPartsSearchSchema = coerceFormValue(partsSearchSchema);

export function parsePartsSearch(searchParams: URLSearchParams) {
  return parseWithZod(searchParams, { schema: coercedPartsSearchSchema, disableAutoCoercion: true });
}
