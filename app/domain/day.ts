import { z } from "zod";

/** A day typed as YYYY-MM-DD for a filter: one message for anything else (not two: malformed, then not a date). */
export const filterDay = z
  .string()
  .trim()
  .refine(
    // A real calendar day: 2026-02-30 does not roll over into March.
    (value) => {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
      const date = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
    },
    "Enter a date such as 2026-01-31",
  );
