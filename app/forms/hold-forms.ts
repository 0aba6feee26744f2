import { z } from "zod";
import { formatQuantity } from "~/format";

/** How much longer an admin may hold one unpaid order's stock at a time, in days. */
export const MAX_HOLD_EXTENSION_DAYS = 30;

const days = (label: string, max: number) =>
  z
    .number({ required_error: `${label} is Required`, invalid_type_error: `${label} must be a whole number` })
    .int(`${label} must be a whole number`)
    .min(1, `${label} must be at least 1`)
    .max(max, `${label} must be at most ${max}`);

/** The admin order page: hold an unpaid order's stock this many days longer. */
export const extendHoldSchema = z.object({
  intent: z.literal("extend-hold"),
  days: days("Days", MAX_HOLD_EXTENSION_DAYS),
});

const optionalCap = (label: string, max: number) =>
  z
    .number({ invalid_type_error: `${label} must be a whole number` })
    .int(`${label} must be a whole number`)
    .min(1, `${label} must be at least 1`)
    .max(max, `${label} must be at most ${formatQuantity(max)}`)
    .optional();

/** A customer's own caps on orders awaiting card payment (empty: the shop's default). */
export const unpaidCapsSchema = z.object({
  intent: z.literal("unpaid-caps"),
  orders: optionalCap("Orders awaiting payment", 1000),
  value: optionalCap("Value awaiting payment", 100_000_000),
});
