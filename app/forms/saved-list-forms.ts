/** The saved lists' forms (one schema per form, an intent per form), shared by the server and the browser. */
import type { SubmissionResult } from "@conform-to/react";
import { z } from "zod";
import { plainText } from "~/domain/plain-text";
import { formatQuantity } from "~/format";
import { recordId } from "./shop-forms";

export const LISTS_PATH = "/dashboard/lists";
export const listPath = (id: string) => `${LISTS_PATH}/${id}`;
export const deleteListPath = (id: string) => `${LISTS_PATH}/${id}/delete`;

export const MAX_LIST_NAME = 80;
export const MAX_LIST_LINES = 200;
export const MAX_LIST_QUANTITY = 100_000;
/** What the list-pick select sends for "a new list". */
export const NEW_LIST = "new";

export const listName = plainText(
  z
    .string({ required_error: "Name the list", invalid_type_error: "Name the list" })
    .trim()
    .min(1, "Name the list")
    .max(MAX_LIST_NAME, `A list name is at most ${MAX_LIST_NAME} characters`),
  "Name",
);

export const listQuantity = z
  .number({ required_error: "Give a quantity", invalid_type_error: "Quantity must be a whole number" })
  .int("Quantity must be a whole number")
  .min(1, "Quantity must be at least 1")
  .max(MAX_LIST_QUANTITY, `A list line holds at most ${formatQuantity(MAX_LIST_QUANTITY)} units`);

const shared = z.boolean().optional();

// --- The lists page ------------------------------------------------------------------------------

export const createListSchema = z.object({ intent: z.literal("create"), name: listName, shared });

export const uploadListSchema = z.object({
  intent: z.literal("upload"),
  name: listName,
  shared,
  file: z
    .instanceof(File, { message: "Choose a CSV file" })
    .refine(
      (file) => file.size > 0,
      "The file is empty: write a header line and a line per part, then choose it again.",
    ),
});

// --- Saving to a list from the part page, the cart and an order -------------------------------------

const target = {
  listId: z.union([z.literal(NEW_LIST), recordId("List")], { errorMap: () => ({ message: "Choose a list" }) }),
  /** The new list's name (when listId is NEW_LIST). */
  name: listName.optional(),
  shared,
  /** The page the form was on: a success goes back there. */
  redirectTo: z.string().max(2048).optional(),
};

const needsName = (value: { listId: string; name?: string }, ctx: z.RefinementCtx) => {
  if (value.listId === NEW_LIST && !value.name) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["name"], message: "Name the new list" });
  }
};

export const saveToListSchema = z
  .discriminatedUnion("intent", [
    z.object({ intent: z.literal("save-part"), partId: recordId("Part"), quantity: listQuantity, ...target }),
    z.object({ intent: z.literal("save-cart"), ...target }),
    z.object({ intent: z.literal("save-order"), orderId: recordId("Order"), ...target }),
  ])
  .superRefine(needsName);

export type SaveToListSource =
  | { intent: "save-part"; partId: string; minimum: number }
  | { intent: "save-cart" }
  | { intent: "save-order"; orderId: string };

/** A list the save form offers (one the customer may change). */
export type ListChoice = { id: string; name: string };

// --- One list's page -----------------------------------------------------------------------------

const partId = recordId("Part");

export const listPageSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("rename"), name: listName }),
    z.object({ intent: z.literal("share"), shared }),
    z.object({ intent: z.literal("quantity"), partId, quantity: listQuantity }),
    z.object({ intent: z.literal("remove"), partId }),
    z.object({
      intent: z.literal("add"),
      partNumber: z
        .string({ required_error: "Give a part number" })
        .trim()
        .min(1, "Give a part number")
        .max(40, "A part number is at most 40 characters"),
      quantity: listQuantity,
    }),
    z.object({ intent: z.literal("cart-all") }),
    z.object({
      intent: z.literal("cart-chosen"),
      chosen: z
        .array(partId, { required_error: "Tick the lines to add", invalid_type_error: "Tick the lines to add" })
        .min(1, "Tick the lines to add")
        .max(MAX_LIST_LINES),
    }),
  ],
  { errorMap: () => ({ message: "Choose what to do with the list" }) },
);

export const deleteListSchema = z.object({ intent: z.literal("delete") });

/** What a refused form of a list page gets back: its intent, the line (if any) and Conform's result. */
export type ListReply = { intent: string; partId: string; result: SubmissionResult<string[]> };
