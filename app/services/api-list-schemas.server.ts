/** The saved lists' API schemas (/api/v1/lists), beside api-schemas.server.ts and built the same way. */
import { extendZodWithOpenApi } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { formatQuantity } from "~/format";
import { MAX_LIST_LINES, MAX_LIST_NAME, MAX_LIST_QUANTITY } from "~/forms/saved-list-forms";
import { plainText } from "~/domain/plain-text";
import { ApiPartNumber } from "./api-schemas.server";

extendZodWithOpenApi(z);

const ListLine = z
  .object({
    partId: z.string(),
    partNumber: z.string(),
    name: z.string().openapi({ description: "The part's name when the line was saved" }),
    quantity: z.number().int(),
  })
  .openapi("SavedListLine");

export const SavedList = z
  .object({
    id: z.string(),
    name: z.string(),
    shared: z.boolean().openapi({ description: "Every member of the owner's company sees it" }),
    mine: z.boolean().openapi({ description: "The key owner owns it (else a colleague shares it)" }),
    lines: z.array(ListLine),
    updatedAt: z.string().datetime().openapi({ description: "ISO 8601, UTC" }),
  })
  .openapi("SavedList");

export const SavedListPage = z.object({ data: z.array(SavedList) }).openapi("SavedLists");

export const ListIdParam = z.object({ id: z.string().openapi({ description: "The list's id" }) });

export const CreateListBody = z
  .object({
    name: plainText(
      z
        .string({ required_error: "Name the list" })
        .trim()
        .min(1, "Name the list")
        .max(MAX_LIST_NAME, `A list name is at most ${MAX_LIST_NAME} characters`),
      "Name",
    ).openapi({ example: "Monthly workshop restock" }),
    shared: z.boolean().optional().openapi({ description: "Share with the company (default false)" }),
    lines: z
      .array(
        z
          .object({
            partNumber: ApiPartNumber,
            quantity: z
              .number({ required_error: "Give the quantity", invalid_type_error: "Quantity must be a whole number" })
              .int("Quantity must be a whole number")
              .min(1, "Quantity must be at least 1")
              .max(MAX_LIST_QUANTITY, `Quantity must be at most ${formatQuantity(MAX_LIST_QUANTITY)}`)
              .openapi({ description: "At least the part's minimum order quantity" }),
          })
          .strict(),
      )
      .max(MAX_LIST_LINES, `At most ${MAX_LIST_LINES} lines in one list`)
      .default([]),
  })
  .strict()
  .openapi("CreateListBody");

export const ListCartResult = z
  .object({
    added: z.number().int().openapi({ description: "Lines that went into the cart" }),
    refused: z
      .array(z.object({ partNumber: z.string(), name: z.string(), reason: z.string() }))
      .openapi({ description: "Lines that did not, each with the reason (stock, minimum, currency, no longer sold)" }),
  })
  .openapi("ListCartResult");
