import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { listPartCards } from "~/models/part-listing.server";
import { PART_CURSOR_PATTERN } from "~/models/part-keyset.server";
import type { CatalogueFilters } from "~/models/part-query-plan.server";
import type { z } from "zod";
import { apiCall, decodeCursor, encodeCursor, methodNotAllowed, ok, problem, readQuery } from "~/services/api.server";
import { PartListQuery } from "~/services/api-schemas.server";
import { partJson } from "~/services/api-views.server";
import { partNumberListSearch, typingCorrections, withTypedVehicle } from "~/services/catalogue-search.server";
import { searchFilters } from "~/services/parts-search.server";
import { priceCards } from "~/services/pricing.server";
import { guardedSearch, normalizedQuery } from "~/services/search-guard.server";

/** A cursor of a search read with typing errors forgiven carries that mark, so its next page is read alike. */
const FORGIVEN_CURSOR = new RegExp(`^~?${PART_CURSOR_PATTERN.source.slice(1)}`);

/**
 * GET /api/v1/parts: the catalogue, searched and filtered as on /parts, a page at a time. Several
 * part numbers at once answer exactly those parts in the order asked, with `notFound`; a vehicle
 * named in the text narrows as `make`/`model` do, and the answer says so in `vehicle`. A text search
 * is counted per key (SEARCHES_PER_MINUTE; 429 with Retry-After past it) and its answer kept a little
 * while, as on /parts (search-guard.server.ts).
 */
export async function loader(args: LoaderFunctionArgs) {
  return apiCall(args, ["read", "stock"], async ({ user, key }) => {
    const query = readQuery(args.request, PartListQuery);
    const cursor = decodeCursor(query.cursor, FORGIVEN_CURSOR);
    const q = query.q?.trim() || null;
    const searched = q
      ? await guardedSearch(
          { apiKeyId: key.id },
          `api\n${JSON.stringify({ ...query, q: normalizedQuery(q), cursor })}`,
          () => searchCatalogue(query, q, cursor),
        )
      : { refused: null, value: await searchCatalogue(query, q, cursor) };
    if (searched.refused) {
      const { retryAfterSeconds, limit } = searched.refused;
      return problem(
        429,
        `Too many searches with this key: at most ${limit} a minute. Try again in ${retryAfterSeconds} s.`,
        { headers: { "Retry-After": String(retryAfterSeconds) } },
      );
    }
    const { parts, ...rest } = searched.value;
    // The key owner's own price (a price group) in their company's currency, as the catalogue's cards show it.
    const priced = await priceCards(user, parts);
    return ok({ data: priced.map((card, index) => partJson(card, parts[index])), ...rest });
  });
}

/** What the catalogue answers to a query, the same for every key that asks it: the cards before pricing. */
async function searchCatalogue(query: z.output<typeof PartListQuery>, q: string | null, cursor: string | null) {
  const numbers = cursor ? null : await partNumberListSearch(q);
  if (numbers) return { parts: numbers.parts, nextCursor: null, notFound: numbers.missing };
  const typed = withTypedVehicle(q, searchFilters({ ...query, page: 1 }));
  const read = (filters: CatalogueFilters, after: string | null) =>
    listPartCards({ query: typed.text, filters, sort: query.sort, perPage: query.limit, withTotal: false, after });
  const after = cursor?.replace(/^~/, "") ?? null;
  const corrections = cursor?.startsWith("~") ? await typingCorrections(typed.text) : null;
  let forgiven = Boolean(corrections);
  let page = await read({ ...typed.filters, corrections }, after);
  // The words as typed find nothing: the same search with the catalogue words near the typed ones.
  if (!cursor && page.parts.length === 0) {
    const near = await typingCorrections(typed.text);
    if (near) {
      page = await read({ ...typed.filters, corrections: near }, null);
      forgiven = page.parts.length > 0;
    }
  }
  const { parts, cursors } = page;
  const nextCursor =
    parts.length === query.limit && cursors.last ? encodeCursor(`${forgiven ? "~" : ""}${cursors.last}`) : null;
  return {
    parts,
    nextCursor,
    ...(typed.vehicle
      ? { vehicle: { make: typed.vehicle.make, model: typed.vehicle.model, year: typed.vehicle.year } }
      : {}),
    ...(forgiven ? { forgiven: true } : {}),
  };
}

export const action = (_args: ActionFunctionArgs) => methodNotAllowed("GET");
