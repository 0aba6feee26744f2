import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { listPartCards } from "~/models/part-listing.server";
import { PART_CURSOR_PATTERN } from "~/models/part-keyset.server";
import { apiCall, decodeCursor, encodeCursor, methodNotAllowed, ok, readQuery } from "~/utils/api.server";
import { PartListQuery } from "~/utils/api-schemas.server";
import { partJson } from "~/utils/api-views.server";
import { searchFilters } from "~/utils/parts-search.server";
import { priceCards } from "~/utils/pricing.server";

/** GET /api/v1/parts: the catalogue, searched and filtered as on /parts, a page at a time. */
export async function loader(args: LoaderFunctionArgs) {
  return apiCall(args, ["read", "stock"], async ({ user }) => {
    const query = readQuery(args.request, PartListQuery);
    const after = decodeCursor(query.cursor, PART_CURSOR_PATTERN);
    const { parts, cursors } = await listPartCards({
      query: query.q?.trim() || null,
      filters: searchFilters({ ...query, page: 1 }),
      sort: query.sort,
      perPage: query.limit,
      withTotal: false,
      after,
    });
    const nextCursor = parts.length === query.limit && cursors.last ? encodeCursor(cursors.last) : null;
    // The key owner's own price (a price group), as the catalogue's cards show it.
    return ok({ data: (await priceCards(user, parts)).map(partJson), nextCursor });
  });
}

export const action = (_args: ActionFunctionArgs) => methodNotAllowed("GET");
