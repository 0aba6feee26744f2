/** A stored date as the views carry it: ISO 8601, or null. */
export const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);
