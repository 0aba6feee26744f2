/** The cart's forms (one schema, an intent per form), shared by the server and the browser. */
import type { SubmissionResult } from "@conform-to/react";
import { z } from "zod";
import { MAX_LINE_QUANTITY } from "~/domain/order-lines";
import { deliveryFields, lineQuantity, recordId } from "./shop-forms";

export const CART_PATH = "/dashboard/cart";

/** What a refused cart form gets back: its intent, the part of its line (if any), and Conform's result. */
export type CartReply = { intent: string; partId: string; result: SubmissionResult<string[]> };

const addSchema = z.object({
  intent: z.literal("add"),
  partId: recordId("Part"),
  quantity: lineQuantity(MAX_LINE_QUANTITY),
  /** Where a browser without JavaScript goes back to (a path on this site). */
  redirectTo: z.string().max(2048).optional(),
});
const updateSchema = z.object({
  intent: z.literal("update"),
  partId: recordId("Part"),
  quantity: lineQuantity(MAX_LINE_QUANTITY),
});
const removeSchema = z.object({ intent: z.literal("remove"), partId: recordId("Part") });
export const checkoutSchema = z.object({
  intent: z.literal("checkout"),
  ...deliveryFields,
});
const reorderSchema = z.object({ intent: z.literal("reorder"), orderId: recordId("Order") });

export const cartSchema = z.discriminatedUnion(
  "intent",
  [addSchema, updateSchema, removeSchema, checkoutSchema, reorderSchema],
  {
    errorMap: () => ({ message: "Choose add, update, remove, checkout or reorder" }),
  },
);

/** The one-line forms (add, update): a quantity for a part. */
export const cartLineSchema = z.object({ partId: recordId("Part"), quantity: lineQuantity(MAX_LINE_QUANTITY) });
