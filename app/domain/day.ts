import { z } from "zod";

/** A day typed as YYYY-MM-DD for a filter: one message for anything else (not two: malformed, then not a date). */
export const filterDay = z
  .string()
  .trim()
  .refine(
    (value) => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)),
    "Enter a date such as 2026-01-31",
  );
