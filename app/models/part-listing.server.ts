import { DEFAULT_BRAND, type Category } from "~/domain/catalogue";
import { truncate } from "~/domain/format";
import type { PartSort } from "~/domain/search";
import { coalesce } from "./coalesce.server";
import { cursorOf, keysetFilter, reversed } from "./part-keyset.server";
import type { PartView } from "~/domain/catalogue";
import { Part, toPartView, type PartDoc } from "./part.server";
import {
  listingIndex,
  listingLead,
  partSearchFilter,
  searchesNothing,
  withWordsTest,
  type CatalogueFilters,
} from "./part-query-plan.server";

/**
 * Each sort follows an index exactly ({createdAt: -1, _id: -1} and {priceCents: 1, _id: 1}, the
 * latter read backwards for price-desc), with _id breaking ties so pages never overlap.
 */
const PART_SORT_SPECS: Record<PartSort, Record<string, 1 | -1>> = {
  newest: { createdAt: -1, _id: -1 },
  "price-asc": { priceCents: 1, _id: 1 },
  "price-desc": { priceCents: -1, _id: -1 },
};

/** What a part card shows, and nothing else. */
const CARD_FIELDS = {
  name: 1,
  partNumber: 1,
  brand: 1,
  category: 1,
  description: 1,
  img: 1,
  priceCents: 1,
  minOrderQuantity: 1,
  availableQuantity: 1,
  volumeBreaks: 1,
  prices: 1,
} as const;

export const CARD_DESCRIPTION_LENGTH = 110;

export type PartCardView = Omit<PartView, "createdAt"> & { brand: string; category: Category };

type ListOptions = {
  query?: string | null;
  filters?: CatalogueFilters;
  sort?: PartSort;
  page?: number;
  perPage?: number;
  withTotal?: boolean;
  /** The total when the caller knows it already (from the filter counts): not counted again. */
  total?: number | null;
  /** Cursors from a neighbouring page (its last or first card): the page after or before it. */
  after?: string | null;
  before?: string | null;
};

/**
 * One page of the catalogue as cards: the one query behind / and /parts, so it can be tuned in one
 * place. Fetches only the card's fields (and the sort key, for the cursors), along an index.
 * `total` is counted only when asked for (the home page does not need it).
 *
 * Every read names its index (listingIndex): an equality, the sort, then the other filters, so
 * the database fetches the page's documents and no others, and counts on the index keys alone.
 *
 * Paging: with a cursor (the links next to a deep page carry one), a range on the index; without
 * one, a skip from whichever end of the list is nearer, so the last pages are as cheap as the
 * first and a page typed in by hand skips at most half the list. Identical reads in flight at
 * the same time share one query (coalesce.server.ts).
 */
export async function listPartCards(options: ListOptions) {
  return coalesce(`part-cards:${JSON.stringify(options)}`, () => readPartCards(options));
}

async function readPartCards({
  query,
  filters,
  sort = "newest",
  page = 1,
  perPage = 12,
  withTotal = true,
  total: known = null,
  after,
  before,
}: ListOptions) {
  if (searchesNothing(query)) return { parts: [], total: withTotal ? 0 : null, cursors: { first: null, last: null } };
  const filter = partSearchFilter(query, filters);
  const cardsFilter = withWordsTest(filter, query, filters?.corrections);
  const filtered = Object.keys(filter).length > 0;
  const spec = PART_SORT_SPECS[sort];
  const index = listingIndex(listingLead(query, filters), sort);
  const fields = { ...CARD_FIELDS, createdAt: 1 };
  const count = () =>
    known !== null
      ? Promise.resolve(known)
      : withTotal
        ? filtered
          ? Part.countDocuments(filter).hint(index)
          : Part.estimatedDocumentCount()
        : Promise.resolve(null);
  const and = (range: object) => (filtered ? { $and: [cardsFilter, range] } : range);

  let docs: PartDoc[];
  let total: number | null;
  const range = after ? keysetFilter(after, sort, "after") : before ? keysetFilter(before, sort, "before") : null;
  const skip = (Math.max(1, Math.floor(page)) - 1) * perPage;
  if (range && after) {
    [docs, total] = await Promise.all([
      Part.find(and(range)).select(fields).sort(spec).hint(index).limit(perPage).lean(),
      count(),
    ]);
  } else if (range) {
    const [back, counted] = await Promise.all([
      Part.find(and(range)).select(fields).sort(reversed(spec)).hint(index).limit(perPage).lean(),
      count(),
    ]);
    [docs, total] = [back.reverse(), counted];
  } else if (skip > 0 && withTotal) {
    // Deep pages: count first, then skip from the nearer end.
    total = await count();
    const fromEnd = (total ?? 0) - skip - perPage;
    if (total !== null && skip >= total / 2 && skip < total) {
      const back = await Part.find(filter)
        .select(fields)
        .sort(reversed(spec))
        .hint(index)
        .skip(Math.max(0, fromEnd))
        .limit(Math.min(perPage, total - skip))
        .lean();
      docs = back.reverse();
    } else {
      docs = await Part.find(filter).select(fields).sort(spec).hint(index).skip(skip).limit(perPage).lean();
    }
  } else {
    [docs, total] = await Promise.all([
      Part.find(skip > 0 ? filter : cardsFilter)
        .select(fields)
        .sort(spec)
        .hint(index)
        .skip(skip)
        .limit(perPage)
        .lean(),
      count(),
    ]);
  }

  const parts = docs.map(toCard);
  const cursors = {
    first: docs.length ? cursorOf(docs[0], sort) : null,
    last: docs.length ? cursorOf(docs[docs.length - 1], sort) : null,
  };
  return { parts, total, cursors };
}

function toCard(doc: PartDoc): PartCardView {
  const { createdAt: _createdAt, ...view } = toPartView(doc);
  return {
    ...view,
    brand: doc.brand ?? DEFAULT_BRAND,
    category: (doc.category ?? "other") as Category,
    description: truncate(view.description, CARD_DESCRIPTION_LENGTH),
  };
}

/** The cards of these parts, in the order given (a list of part numbers typed at once); one read by _id. */
export async function listPartCardsByIds(ids: string[]) {
  if (ids.length === 0) return [];
  const docs = await Part.find({ _id: { $in: ids } })
    .select(CARD_FIELDS)
    .lean();
  const byId = new Map(docs.map((doc) => [doc._id.toString(), toCard(doc as PartDoc)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
