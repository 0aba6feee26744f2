/**
 * The admin's forms on an order: ship it (carrier and tracking number, or collected), record money
 * received outside Stripe, reverse a recorded payment. Shared by the server and the browser.
 */
import { z } from "zod";
import { carriers, COLLECTED } from "~/content/carriers";
import { MAX_LINE_QUANTITY, MAX_ORDER_LINES } from "~/domain/order-lines";
import { PAYMENT_METHODS } from "~/domain/order-states";
import { formatQuantity } from "~/format";
import { plainText } from "~/domain/plain-text";
import { cancelReason } from "./cancel-reason";

const CARRIER_IDS = [COLLECTED, ...carriers.map((carrier): string => carrier.id)] as [string, ...string[]];

/** How an order left: a carrier and its tracking number, or collected (the form and the API). */
export const shipmentFields = {
  carrier: z.enum(CARRIER_IDS, {
    errorMap: () => ({ message: "Choose a carrier from the list, or collected by the customer" }),
  }),
  trackingNumber: z
    .string()
    .trim()
    .max(40, "A tracking number is at most 40 characters")
    .regex(/^[A-Za-z0-9 -]*$/, "A tracking number holds letters, digits, spaces and dashes")
    .optional(),
};

/** A carrier needs its tracking number; an order collected by the customer has none. */
export const trackingGiven = {
  check: (value: { carrier: string; trackingNumber?: string }) =>
    value.carrier === COLLECTED || Boolean(value.trackingNumber),
  message: { path: ["trackingNumber"], message: "Enter the tracking number the carrier gave" },
};

/** Units of one line in a parcel: none (0) up to what it may ship, which the server checks. */
const parcelQuantity = z
  .number({ required_error: "Enter the units to ship (0 for none)", invalid_type_error: "Units are a whole number" })
  .int("Units are a whole number")
  .min(0, "Units cannot be negative")
  .max(MAX_LINE_QUANTITY, `Units must be at most ${formatQuantity(MAX_LINE_QUANTITY)}`);

export const MAX_SHIPMENT_NOTE = 500;

export const shipOrderSchema = z
  .object({
    intent: z.literal("ship"),
    ...shipmentFields,
    /** The units of each line in this parcel, by the line's place on the order. */
    lines: z
      .array(z.object({ quantity: parcelQuantity }))
      .max(MAX_ORDER_LINES)
      .optional(),
    note: plainText(
      z.string().trim().max(MAX_SHIPMENT_NOTE, `A note is at most ${MAX_SHIPMENT_NOTE} characters`),
      "A note",
    ).optional(),
  })
  .refine(trackingGiven.check, trackingGiven.message);

export const MAX_AMOUNT_CENTS = 100_000_000_00;

/**
 * An amount in the order's currency as typed ("1,250.50", "$80", "€80") to whole minor units; anything
 * else is refused at the field.
 */
const amount = z
  .string({ required_error: "Enter the amount received" })
  .trim()
  .min(1, "Enter the amount received")
  .transform((text, ctx) => {
    const plain = text.replace(/^[$€£]/, "").replace(/,/g, "");
    if (!/^-?\d+(\.\d{1,2})?$/.test(plain)) {
      ctx.addIssue({ code: "custom", message: "Enter an amount such as 1250.00" });
      return z.NEVER;
    }
    const cents = Math.round(Number(plain) * 100);
    if (cents <= 0) {
      ctx.addIssue({ code: "custom", message: "The amount must be more than 0" });
      return z.NEVER;
    }
    if (cents > MAX_AMOUNT_CENTS) {
      ctx.addIssue({ code: "custom", message: "That amount is too large" });
      return z.NEVER;
    }
    return cents;
  });

/** A real calendar day as YYYY-MM-DD: 2026-02-30 does not roll over into March, and years start at 2000. */
export function isCalendarDay(value: string) {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match || Number(match[1]) < 2000) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/**
 * A day typed as YYYY-MM-DD, with one message for whatever is wrong with it: missing (`required`),
 * not a real calendar day (`invalid`), or else the first of `rules` it breaks.
 */
export function dayField(
  { required, invalid }: { required?: string; invalid: string },
  ...rules: [ok: (day: string) => boolean, message: string][]
) {
  return z
    .string({ required_error: required ?? invalid, invalid_type_error: invalid })
    .trim()
    .superRefine((value, ctx) => {
      const message =
        value === "" && required ? required : !isCalendarDay(value) ? invalid : rules.find(([ok]) => !ok(value))?.[1];
      if (message) ctx.addIssue({ code: "custom", message });
    });
}

const day = dayField({ required: "Enter the day the money arrived", invalid: "Enter a real date such as 2026-01-31" }, [
  (value) => Date.parse(`${value}T00:00:00Z`) <= Date.now(),
  "The money cannot arrive in the future",
]);

/** A payment's day, method and reference (the form and the API; the amount is typed differently). */
export const paymentFields = {
  receivedOn: day,
  method: z.enum(PAYMENT_METHODS, { errorMap: () => ({ message: "Choose bank transfer, cheque or cash" }) }),
  reference: plainText(z.string().trim().max(60, "A reference is at most 60 characters"), "A reference").optional(),
};

/** The form's "This is a second payment" checkbox: records a payment that looks like one already recorded. */
export const SECOND_PAYMENT_LABEL = "This is a second payment, not the same one again";

export const recordPaymentSchema = z.object({
  intent: z.literal("record-payment"),
  amount,
  ...paymentFields,
  secondPayment: z.boolean().optional(),
});

export const reversePaymentSchema = z.object({
  intent: z.literal("reverse-payment"),
  paymentId: z.string().regex(/^[a-f0-9]{24}$/i, "That payment is not on this order"),
  reason: plainText(
    z
      .string({ required_error: "Say why the payment is reversed" })
      .trim()
      .min(3, "Say why the payment is reversed")
      .max(200, "A reason is at most 200 characters"),
    "A reason",
  ),
});

/** The admin order page's forms, by their intent (each keeps its own refinements). */
export function adminOrderSchema(intent: FormDataEntryValue | null) {
  if (intent === "record-payment") return recordPaymentSchema;
  if (intent === "reverse-payment") return reversePaymentSchema;
  return shipOrderSchema;
}

/** Today as YYYY-MM-DD (UTC), the payment form's default. */
export const today = () => new Date().toISOString().slice(0, 10);

export const CANCEL_PAID_CONFIRM = "Yes, cancel this paid order, put its stock back and credit it in full";

/** Staff cancel a paid order before it ships: the box must be ticked and a reason given (checked on the server too). */
export const cancelPaidSchema = z.object({
  intent: z.literal("cancel-paid"),
  reason: cancelReason,
  confirm: z.literal("yes", { errorMap: () => ({ message: "Tick the box to confirm the cancellation" }) }),
});

/** Staff record an account credit paid out by bank transfer: the bank's reference. */
export const payoutSchema = z.object({
  intent: z.literal("payout"),
  creditNoteId: z.string().regex(/^[a-f0-9]{24}$/i, "That credit note does not exist"),
  reference: plainText(
    z
      .string({ required_error: "Give the bank transfer's reference" })
      .trim()
      .min(1, "Give the bank transfer's reference")
      .max(60, "A reference is at most 60 characters"),
    "A reference",
  ),
});

/** Staff take the account's credit off this invoice: at most an amount, or all it can take when left empty. */
export const applyCreditSchema = z.object({
  intent: z.literal("apply-credit"),
  // An empty field arrives as undefined (Conform): take as much as it can.
  amount: amount.optional(),
});
