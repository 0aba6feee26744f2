import { z } from "zod";
import { ORDER_STATUS_FILTERS } from "./shop-forms";

const day = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Enter a date such as 2026-01-31")
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), "Enter a date such as 2026-01-31");

/**
 * Manage Orders' search and filters (a GET form, all in the URL): `q` is an order number (its 24
 * characters) or the start of the customer's email; status; a range of whole UTC days placed.
 */
export const orderFilterSchema = z
  .object({
    q: z
      .string()
      .trim()
      .max(254, "Search for at most 254 characters")
      .refine(
        (value) => /^[a-f0-9]{24}$/i.test(value) || /^[^\s@]+(@[^\s@]*)?$/.test(value),
        "Enter an order number (24 characters) or an email address, or its start",
      )
      .optional(),
    status: z.enum(ORDER_STATUS_FILTERS, { errorMap: () => ({ message: "Choose a status from the list" }) }).optional(),
    from: day.optional(),
    to: day.optional(),
  })
  .refine((value) => !value.from || !value.to || value.from <= value.to, {
    path: ["to"],
    message: "The end date must not be before the start date",
  });

export type OrderFilterValues = z.infer<typeof orderFilterSchema>;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The form's values as the model's filter: an order number or an email prefix, status, a time range. */
export function toOrderFilter({ q, status, from, to }: OrderFilterValues) {
  const isOrderNumber = Boolean(q && /^[a-f0-9]{24}$/i.test(q));
  return {
    orderId: isOrderNumber ? q!.toLowerCase() : null,
    emailPrefix: q && !isOrderNumber ? q.toLowerCase() : null,
    status: status ?? null,
    from: from ? new Date(`${from}T00:00:00Z`) : null,
    to: to ? new Date(Date.parse(`${to}T00:00:00Z`) + DAY_MS) : null,
  };
}

export type OrderFilter = ReturnType<typeof toOrderFilter>;
