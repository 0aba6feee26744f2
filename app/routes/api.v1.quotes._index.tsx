import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import {
  apiCall,
  decodeCursor,
  encodeCursor,
  idempotent,
  methodNotAllowed,
  ok,
  readJson,
  readQuery,
} from "~/services/api.server";
import { QuoteListQuery, RequestQuoteBody } from "~/services/api-quote-schemas.server";
import { quoteJson, quoteRefusalProblem } from "~/orders/quote-api.server";
import { quotesForCustomer, requestQuote } from "~/orders/quotes.server";

/** A page of the list, as the Quotes screen pages it. */
const PAGE_CURSOR = /^page:[1-9]\d{0,5}$/;

/** GET /api/v1/quotes: the key owner's quotes (an owner's: the company's), newest first, as Quotes lists them. */
export async function loader(args: LoaderFunctionArgs) {
  return apiCall(args, "read", async ({ user }) => {
    const query = readQuery(args.request, QuoteListQuery);
    const page = Number(decodeCursor(query.cursor, PAGE_CURSOR)?.slice("page:".length) ?? 1);
    const { quotes, pages } = await quotesForCustomer(user, page);
    return ok({ data: quotes.map(quoteJson), nextCursor: page < pages ? encodeCursor(`page:${page + 1}`) : null });
  });
}

/**
 * POST /api/v1/quotes: asks for a quote of lines by part number (or OE number), through the same
 * service as the request form. Idempotency-Key makes a retry safe.
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== "POST") return methodNotAllowed("GET, POST");
  return apiCall(args, "order", async ({ user }) => {
    const body = await readJson(args.request, RequestQuoteBody);
    return idempotent(args.request, { ownerId: user.id, operation: "request-quote", body }, async () => {
      const asked = await requestQuote(
        user,
        {
          intent: "request",
          lines: body.lines.map((line) => ({
            partNumber: line.partNumber,
            quantity: line.quantity,
            targetPrice: line.targetUnitPriceCents ? (line.targetUnitPriceCents / 100).toFixed(2) : undefined,
          })),
          wantedBy: body.wantedBy,
          note: body.note,
        },
        args.context,
      );
      if (!asked.ok) return quoteRefusalProblem(asked.status, asked.errors);
      return ok(quoteJson(asked.quote), {
        status: 201,
        headers: { Location: `/api/v1/quotes/${asked.quote.id}` },
      });
    });
  });
}
