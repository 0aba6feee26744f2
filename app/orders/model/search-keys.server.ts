/**
 * Manage Orders' search (and its CSV export's): what an order is found by besides its number and
 * id. An order stores its search keys when it is placed: the PO number, the company name and the
 * name of the member who placed it, whole and word by word (so "lovelace", "ada" and "ada love"
 * all find Ada Lovelace's orders), lower case and with accents folded ("jose" finds José). A
 * search is an anchored prefix of one key: a range on the { searchKeys, createdAt } index.
 */
import { escapeRegExp } from "~/domain/search";

/** Lower case, accents off, runs of spaces as one: how keys are stored and typed text compared. */
export function foldForSearch(text: string) {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * A name's keys: the whole name and every end of it from a word on ("ana de la cruz", "de la cruz",
 * "la cruz", "cruz"), and each part of a double-barrelled word ("muller", "brandt").
 */
function nameKeys(name: string) {
  const words = name.split(" ");
  return [
    ...words.map((_, index) => words.slice(index).join(" ")),
    ...words.flatMap((word) => word.split("-")).filter((word) => word.length > 1),
  ];
}

/** The keys an order is found by: PO number, company name, and the placer's name whole and word by word. */
export function orderSearchKeys({
  poNumber,
  companyName,
  placerName,
}: {
  poNumber?: string | null;
  companyName?: string | null;
  placerName?: string | null;
}) {
  const keys: string[] = [];
  // The PO number and company name as before (lower case), and folded when that differs.
  for (const value of [poNumber, companyName]) {
    if (!value) continue;
    keys.push(value.toLowerCase(), foldForSearch(value));
  }
  if (placerName) {
    keys.push(...nameKeys(foldForSearch(placerName)));
  }
  return [...new Set(keys.filter(Boolean))];
}

/**
 * The branches of the search's $or besides the order number and id: the start of the customer's
 * email, or the start of a key (PO number, company, the placer's first, last or whole name).
 */
export function orderSearchBranches(typed: string) {
  const lower = typed.trim().toLowerCase();
  const folded = foldForSearch(typed);
  const prefix = (text: string) => ({ $regex: `^${escapeRegExp(text)}` });
  return [
    // Anchored, case-sensitive prefixes of lower-case fields: ranges on their indexes.
    { userEmail: prefix(lower) },
    { searchKeys: prefix(lower) },
    ...(folded !== lower ? [{ searchKeys: prefix(folded) }] : []),
  ];
}
