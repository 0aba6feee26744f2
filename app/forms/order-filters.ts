import { z } from "zod";
import { filterDay as day } from "~/domain/day";
import { ORDER_STATES } from "~/domain/order-states";

/**
 * Manage Orders' search and filters (a GET form, all in the URL): `q` is an order number (SO-100042,
 * 100042, any case), a PO number, or the start of the customer's email or company name; status (an
 * order state; `paid`, the older word of links in sent mail, is Pending); a range of whole UTC days placed.
 */
export const orderFilterSchema = z
  .object({
    q: z.string().trim().max(254, "Search for at most 254 characters").optional(),
    status: z.preprocess(
      (value) => (value === "paid" ? "pending" : value),
      z.enum(ORDER_STATES, { errorMap: () => ({ message: "Choose a status from the list" }) }).optional(),
    ),
    from: day.optional(),
    to: day.optional(),
    /** One company's orders (a link from the company's page). */
    company: z
      .string()
      .regex(/^[a-f0-9]{24}$/i, "Choose a company from its page")
      .optional(),
  })
  .refine((value) => !value.from || !value.to || value.from <= value.to, {
    path: ["to"],
    message: "The end date must not be before the start date",
  });

export type OrderFilterValues = z.infer<typeof orderFilterSchema>;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The form's values as the model's filter: what was typed, the state, a time range. */
export function toOrderFilter({ q, status, from, to, company }: OrderFilterValues) {
  return {
    companyId: company ?? null,
    q: q || null,
    state: status ?? null,
    from: from ? new Date(`${from}T00:00:00Z`) : null,
    to: to ? new Date(Date.parse(`${to}T00:00:00Z`) + DAY_MS) : null,
  };
}

export type OrderFilter = ReturnType<typeof toOrderFilter>;
