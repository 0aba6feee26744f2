/**
 * The zod schemas of the ordering, review and back-office forms, shared by the server (actions)
 * and the browser (instant validation). Numbers arrive as text and are coerced by Conform; the
 * schemas accept only plain strings and numbers, so an object such as `quantity.$gt=` (a query
 * operator) is refused with a field error before anything reaches the database.
 */
import { z } from "zod";
import { ORDER_PAYMENT_METHODS } from "~/domain/order-payments";
import { MAX_LINE_QUANTITY } from "~/domain/order-lines";
import { formatQuantity } from "~/format";
import { postalAddressField } from "~/domain/address";
import { plainText } from "~/domain/plain-text";
import { poNumber } from "./trade-schemas";

export const CANCEL_WORD = "cancel";
export const DEFAULT_RATING = 2;
export const REVIEW_MAX_LENGTH = 1000;
export const MAX_STOCK = 10_000_000;
export const MAX_PRICE_DOLLARS = 1_000_000;
export const MAX_MIN_ORDER = 1_000_000;
/** The minimum order of a new part (the Part model has the same default). */
export const DEFAULT_MIN_ORDER = 100;

const objectIdPattern = /^[a-f0-9]{24}$/i;

/** A required whole number within [min, max], with messages that name the field. */
function wholeNumber(
  label: string,
  { min, max, minMessage, maxMessage }: { min: number; max: number; minMessage?: string; maxMessage?: string },
) {
  return z
    .number({ required_error: `${label} is Required`, invalid_type_error: `${label} must be a whole number` })
    .int(`${label} must be a whole number`)
    .min(min, minMessage ?? `${label} must be at least ${formatQuantity(min)}`)
    .max(max, maxMessage ?? `${label} must be at most ${formatQuantity(max)}`);
}

/** A required line of text, trimmed, at most `max` characters. */
function requiredText(label: string, max: number) {
  return z
    .string({ required_error: `${label} is Required`, invalid_type_error: `${label} must be text` })
    .trim()
    .min(1, `${label} is Required`)
    .max(max, `${label} must be ${max} characters or fewer`);
}

function objectId(label: string) {
  return z
    .string({ required_error: `${label} is Required`, invalid_type_error: `${label} is not valid` })
    .regex(objectIdPattern, `${label} is not valid`);
}

// --- Part details: the order form ---------------------------------------------------------------

/**
 * What every order asks besides its lines (the part page's order form, checkout, the quick-order pad):
 * where it goes, the buyer's optional PO number, and whether to keep the address and phone on the profile.
 */
export const deliveryFields = {
  phone: requiredText("Phone", 40).regex(/^\+?[\d\s().-]{6,40}$/, "Provide a valid phone number"),
  /** Where the goods go, field by field (`delivery.city`, …): its country and region decide the tax. */
  delivery: postalAddressField,
  /** The saved address the form started from: one flagged for confirmation is confirmed by this order. */
  addressId: z.string().regex(objectIdPattern, "Choose a saved address").optional(),
  poNumber,
  /** "Save to my address book" (a checkbox, ticked by default). */
  saveAddress: z.boolean().optional(),
  /**
   * The total with tax the form showed when the buyer pressed the order button: the order is placed
   * only at that total (checkout.server.ts); another one is shown first, nothing ordered.
   */
  quotedTotalCents: z.number().int().nonnegative().optional(),
  /**
   * Card (the default where card payment is set up), bank transfer against the pro-forma, or on
   * account (offered only to customers with payment terms; checked on the server).
   */
  payment: z
    .enum(ORDER_PAYMENT_METHODS, { errorMap: () => ({ message: "Choose card, bank transfer or on account" }) })
    .optional(),
};

/** A quantity typed into the cart (the part's own minimum and stock are checked against the database). */
export function lineQuantity(max: number) {
  return wholeNumber("Quantity", { min: 1, max });
}

/** A record id posted by a form. */
export function recordId(label: string) {
  return objectId(label);
}

/**
 * The order form of one part: quantity between the part's minimum order and its available stock.
 * Name and email are not fields: they come from the account on the server.
 */
export function orderFormSchema(part: {
  minOrderQuantity: number;
  availableQuantity: number;
  backorderable?: boolean;
}) {
  return z.object({
    ...deliveryFields,
    quantity: wholeNumber("Quantity", {
      min: part.minOrderQuantity,
      // A part that may be backordered takes any quantity: what the shelf lacks waits on backorder.
      max: part.backorderable ? MAX_LINE_QUANTITY : Math.max(part.availableQuantity, 0),
      minMessage: `The minimum order is ${formatQuantity(part.minOrderQuantity)} units`,
      maxMessage: `Only ${formatQuantity(part.availableQuantity)} units are available`,
    }),
  });
}

// --- My Orders: cancel --------------------------------------------------------------------------

export const cancelOrderSchema = z.object({
  confirm: z
    .string({ required_error: `Type ${CANCEL_WORD} to confirm`, invalid_type_error: `Type ${CANCEL_WORD} to confirm` })
    .refine((value) => value === CANCEL_WORD, `Type exactly ${CANCEL_WORD} to drop the order`),
});

// --- Add A Review -------------------------------------------------------------------------------

export const reviewSchema = z.object({
  rating: z
    .number({ required_error: "Rating is Required", invalid_type_error: "Rating must be a whole number from 1 to 5" })
    .int("Rating must be a whole number from 1 to 5")
    .min(1, "Rating must be a whole number from 1 to 5")
    .max(5, "Rating must be a whole number from 1 to 5"),
  description: plainText(requiredText("Description", REVIEW_MAX_LENGTH), "Description", { multiline: true }),
});

/** Manage Reviews: hide, show again or delete one review. */
export const reviewModerationSchema = z.object({
  intent: z.enum(["hide", "unhide", "delete"], { errorMap: () => ({ message: "Choose an action" }) }),
  reviewId: z.string({ required_error: "Choose a review" }).regex(/^[a-f0-9]{24}$/i, "Choose a review"),
});

// --- Add Product ----------------------------------------------------------------------------------

/** An http(s) address or a path on this site ("/images/..."); nothing else goes into <img src>. */
function imageUrl() {
  return requiredText("Image URL", 2048).refine((value) => {
    if (value.startsWith("/") && !value.startsWith("//") && !value.startsWith("/\\")) return true;
    try {
      const url = new URL(value);
      return url.protocol === "https:" || url.protocol === "http:";
    } catch {
      return false;
    }
  }, "Provide a valid image URL (https://… or /images/…)");
}

export const addPartSchema = z.object({
  name: plainText(requiredText("Name", 120), "Name"),
  description: plainText(requiredText("Description", 2000), "Description", { multiline: true }),
  img: imageUrl(),
  quantity: wholeNumber("Quantity", { min: 0, max: MAX_STOCK }),
  price: wholeNumber("Price", { min: 1, max: MAX_PRICE_DOLLARS }),
  minOrderQuantity: wholeNumber("Minimum order quantity", { min: 1, max: MAX_MIN_ORDER }),
  partNumber: z
    .string({ invalid_type_error: "Part number must be text" })
    .trim()
    .regex(/^[A-Za-z0-9-]{2,32}$/, "Use 2 to 32 letters, digits or dashes")
    .optional(),
});

// --- Prices: whole dollars typed, integer cents kept ------------------------------------------------

/** Dollars as typed (whole, or a stored price sent back unchanged) to the cents the shop keeps. */
export function dollarsToCents(dollars: number) {
  return Math.round(dollars * 100);
}

/**
 * The price field of the edit forms: whole dollars, like Add Product. A part stored with cents
 * (before that rule) sends its price back unchanged in `currentPriceCents`; that same price passes,
 * so saving anything else never fails, and a new price with cents says what to type instead.
 */
export const editablePriceFields = {
  price: z
    .number({ required_error: "Price is Required", invalid_type_error: "Price must be a whole number" })
    .finite("Price must be a whole number")
    .min(1, "Price must be at least 1")
    .max(MAX_PRICE_DOLLARS, `Price must be at most ${formatQuantity(MAX_PRICE_DOLLARS)}`),
  currentPriceCents: z.number().int().min(0).optional(),
};

export function wholeDollarsOrUnchanged(
  { price, currentPriceCents }: { price?: number; currentPriceCents?: number },
  ctx: z.RefinementCtx,
) {
  if (price === undefined || Number.isInteger(price)) return;
  if (currentPriceCents !== undefined && dollarsToCents(price) === currentPriceCents) return;
  const down = Math.max(1, Math.floor(price));
  const suggestion = down === Math.ceil(price) ? `${down}` : `${down} or ${Math.ceil(price)}`;
  ctx.addIssue({
    path: ["price"],
    code: "custom",
    message:
      currentPriceCents !== undefined && currentPriceCents % 100 !== 0
        ? `Prices are whole dollars: type ${suggestion}, or leave ${(currentPriceCents / 100).toFixed(2)} as it is`
        : `Price must be a whole number of dollars, such as ${suggestion}`,
  });
}

/** What an edit form's price field shows: whole dollars as "24", a stored price with cents as "24.50". */
export function priceFieldValue(cents: number) {
  return cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2);
}

// --- Manage Products: edit price and stock, delete ----------------------------------------------

const updatePartObject = z.object({
  intent: z.literal("update"),
  partId: objectId("Part"),
  ...editablePriceFields,
  stock: wholeNumber("Stock", { min: 0, max: MAX_STOCK }),
  /** The stock the admin saw: the update applies only while it is still the stock. */
  expectedStock: wholeNumber("Stock", { min: 0, max: Number.MAX_SAFE_INTEGER }),
});

export const updatePartSchema = updatePartObject.superRefine(wholeDollarsOrUnchanged);

export const manageProductsSchema = z
  .discriminatedUnion(
    "intent",
    [updatePartObject, z.object({ intent: z.literal("delete"), partId: objectId("Part") })],
    { errorMap: () => ({ message: "Choose update or delete" }) },
  )
  .superRefine((value, ctx) => {
    if (value.intent === "update") wholeDollarsOrUnchanged(value, ctx);
  });

// --- Manage Orders: remove (shipping and payments have their own forms: forms/order-forms.ts) -----

export const manageOrdersSchema = z.object({
  intent: z.literal("remove", { errorMap: () => ({ message: "Choose remove" }) }),
  orderId: objectId("Order"),
});

// --- Lists ----------------------------------------------------------------------------------------

/** `?page=` as a positive whole number; anything else is page 1. */
export function parsePage(value: string | null) {
  if (!value || !/^\d{1,6}$/.test(value)) return 1;
  return Math.max(1, Number(value));
}
