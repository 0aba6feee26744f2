/**
 * The quotes' API schemas (/api/v1/quotes), beside api-schemas.server.ts and built the same way: the
 * request and acceptance take the screens' own fields; a quote reads as its webhook payload does
 * (docs/webhooks.md), with every version.
 */
import { extendZodWithOpenApi } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { MAX_QUOTE_LINES, QUOTE_STATUSES } from "~/domain/quotes";
import { acceptQuoteSchema, quoteRequestLineSchema, quoteRequestSchema } from "~/forms/quote-forms";
import { deliveryFields } from "~/forms/shop-forms";
import { MAX_LINE_QUANTITY } from "~/domain/order-lines";
import { formatQuantity } from "~/format";
import { ApiPostalAddress } from "./api-schemas.server";

extendZodWithOpenApi(z);

const isoTime = z.string().openapi({ description: "ISO 8601, UTC", format: "date-time" });
const cents = (description: string) => z.number().int().openapi({ description });

const QuoteVersionJson = z.object({
  number: z.string().openapi({ example: "Q-100012-2" }),
  version: z.number().int().openapi({ description: "1 for the first version sent, 2 for the next, …" }),
  validUntil: z.string().openapi({ description: "The last day it may be accepted (YYYY-MM-DD, to its end, UTC)" }),
  netCents: cents("The lines' total before tax, in the quote's currency"),
  partialAllowed: z.boolean().openapi({ description: "Some lines may be accepted without the others" }),
  terms: z.string(),
  lines: z.array(
    z.object({
      partId: z.string(),
      partNumber: z.string(),
      quantity: z.number().int(),
      unitPriceCents: cents("The quoted price of a unit"),
      leadTimeDays: z.number().int().openapi({ description: "0: from stock" }),
    }),
  ),
});

export const Quote = z
  .object({
    id: z.string(),
    number: z.string().openapi({ example: "Q-100012" }),
    status: z.enum(QUOTE_STATUSES),
    currency: z
      .string()
      .openapi({ description: "ISO 4217 in lower case (as webhooks write it): every …Cents is in it", example: "usd" }),
    customer: z.object({
      id: z.string(),
      email: z.string(),
      name: z.string(),
      companyName: z.string().nullable(),
    }),
    wantedBy: z.string().nullable().openapi({ description: "The day the buyer wants the parts (YYYY-MM-DD)" }),
    lines: z
      .array(
        z.object({
          partId: z.string(),
          partNumber: z.string(),
          name: z.string(),
          quantity: z.number().int(),
          targetUnitPriceCents: z.number().int().nullable().openapi({ description: "The price a unit asked for" }),
        }),
      )
      .openapi({ description: "The lines asked for" }),
    version: QuoteVersionJson.nullable().openapi({ description: "The latest version sent, or null while none is" }),
    order: z
      .object({ id: z.string(), number: z.string().nullable() })
      .nullable()
      .openapi({ description: "The order its acceptance placed (GET /orders/{id})" }),
    createdAt: isoTime,
    acceptedAt: isoTime.nullable(),
    versions: z
      .array(QuoteVersionJson.extend({ note: z.string(), sentAt: isoTime }))
      .openapi({ description: "Every version sent, oldest first; only the latest may be accepted" }),
  })
  .openapi("Quote", {
    description:
      "A quote: the lines asked for, the versions the shop sent and what became of it. Money is in integer minor units (…Cents) of currency.",
  });

export const QuoteList = z.object({ data: z.array(Quote), nextCursor: z.string().nullable() }).openapi("QuoteList");

export const QuoteListQuery = z
  .object({ cursor: z.string().max(200).optional().openapi({ description: "nextCursor of the previous page" }) })
  .strict();

export const QuoteIdParam = z.object({ id: z.string().openapi({ description: "The quote's id" }) });

export const RequestQuoteBody = z
  .object({
    lines: z
      .array(
        z
          .object({
            partNumber: quoteRequestLineSchema.shape.partNumber.openapi({
              description: "A part number or an OE number",
              example: "PW-1003",
            }),
            quantity: z
              .number({ required_error: "Give the quantity", invalid_type_error: "Quantity must be a whole number" })
              .int("Quantity must be a whole number")
              .min(1, "Quantity must be at least 1")
              .max(MAX_LINE_QUANTITY, `Quantity must be at most ${formatQuantity(MAX_LINE_QUANTITY)}`)
              .openapi({ description: "At least the part's minimum order" }),
            targetUnitPriceCents: z
              .number({ invalid_type_error: "The target price is a whole number of cents" })
              .int("The target price is a whole number of cents")
              .min(1, "The target price must be more than 0")
              .max(999_999_999, "That target price is too large")
              .optional()
              .openapi({ description: "The price a unit you hope for, in your company's currency's minor unit" }),
          })
          .strict(),
        { required_error: "Give at least one line" },
      )
      .min(1, "Give at least one line")
      .max(MAX_QUOTE_LINES, `A quote request has at most ${MAX_QUOTE_LINES} lines`),
    wantedBy: quoteRequestSchema.shape.wantedBy.openapi({
      description: "The day you want the parts (YYYY-MM-DD, not in the past)",
      example: "2026-12-31",
    }),
    note: quoteRequestSchema.shape.note,
  })
  .strict()
  .openapi("RequestQuoteBody");

export const AcceptQuoteBody = z
  .object({
    version: acceptQuoteSchema.shape.version.openapi({
      description: "The version accepted: the latest, still valid (an older one is refused with 409)",
    }),
    partIds: acceptQuoteSchema.shape.partIds.openapi({
      description: "The lines to order by partId, when the version allows some lines only; absent: every line",
    }),
    phone: deliveryFields.phone,
    deliveryAddress: ApiPostalAddress,
    poNumber: deliveryFields.poNumber,
    payment: deliveryFields.payment.openapi({
      description: "card (the default: pay at the shop), bank-transfer or account (customers with terms)",
    }),
  })
  .strict()
  .openapi("AcceptQuoteBody");
