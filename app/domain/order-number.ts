/** Order numbers as people read them: `SO-` and digits (shared by server and browser). */

export const ORDER_NUMBER_PREFIX = "SO-";
/** The first order is SO-100001: six digits from the start, so the numbers line up in lists. */
export const ORDER_NUMBER_BASE = 100_000;

export function formatOrderNumber(number: number) {
  return `${ORDER_NUMBER_PREFIX}${number}`;
}

/** "SO-100017", "so100017", "SO 100017" or "100017" as 100017; anything else null. */
export function parseOrderNumber(text: string): number | null {
  const match = /^(?:so[-\s]?)?(\d{1,12})$/i.exec(text.trim());
  if (!match) return null;
  const number = Number(match[1]);
  return Number.isSafeInteger(number) && number > 0 ? number : null;
}
