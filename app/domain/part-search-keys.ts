import {
  CATEGORY_LABELS,
  DEFAULT_BRAND,
  fitmentKeys,
  partNumberKey,
  partSearchWords,
  searchTerms,
  searchWords,
  type Category,
  type FitmentRow,
} from "./catalogue";
import { fuzzyKeys, joinedPairs } from "./search-text";

/**
 * The version of the keys below: parts stored with an older one get new keys at the next start
 * (backfillCatalogueKeys). Raise it whenever catalogueKeys changes what it derives.
 */
export const SEARCH_KEYS_VERSION = 3;

function searchKeys(name: string, text: string, numbers: string[]) {
  const words = [
    ...new Set([...partSearchWords(text, numbers), ...partSearchWords(joinedPairs(searchWords(name)).join(" "), [])]),
  ];
  return { words, terms: [...searchTerms(words), ...fuzzyKeys(searchWords(text))] };
}

/** The search keys of a part, from its catalogue fields: stored with it, never edited by hand. */
export function catalogueKeys(fields: {
  partNumber: string;
  name: string;
  brand?: string | null;
  category?: string | null;
  oeNumbers?: readonly string[] | null;
  fitment?: readonly FitmentRow[] | null;
}) {
  const category = (fields.category ?? "other") as Category;
  return {
    partNumberKey: partNumberKey(fields.partNumber),
    oeKeys: [...new Set((fields.oeNumbers ?? []).map(partNumberKey).filter(Boolean))],
    vehicleKeys: fitmentKeys(fields.fitment ?? []),
    ...searchKeys(fields.name, `${fields.name} ${fields.brand ?? DEFAULT_BRAND} ${CATEGORY_LABELS[category] ?? ""}`, [
      fields.partNumber,
      ...(fields.oeNumbers ?? []),
    ]),
    searchKeysVersion: SEARCH_KEYS_VERSION,
  };
}
