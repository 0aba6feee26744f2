import {
  CATEGORY_LABELS,
  DEFAULT_BRAND,
  fitmentKeys,
  partNumberKey,
  partSearchWords,
  searchTerms,
  type Category,
  type FitmentRow,
} from "./catalogue";

function searchKeys(text: string, numbers: string[]) {
  const words = partSearchWords(text, numbers);
  return { words, terms: searchTerms(words) };
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
    ...searchKeys(`${fields.name} ${fields.brand ?? DEFAULT_BRAND} ${CATEGORY_LABELS[category] ?? ""}`, [
      fields.partNumber,
      ...(fields.oeNumbers ?? []),
    ]),
  };
}
