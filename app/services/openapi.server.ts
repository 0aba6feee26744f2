/**
 * The OpenAPI 3.1 document of /api/v1, generated from the zod schemas the routes validate with
 * (api-schemas.server.ts). Served at /api/v1/openapi.json; /api/docs renders it.
 */
import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import {
  CancelBody,
  CreditNoteParams,
  DocumentParam,
  Order,
  OrderIdParam,
  OrderList,
  OrderListQuery,
  PartDetail,
  PartList,
  PartListQuery,
  PartNumberParam,
  PaymentBody,
  PayoutBody,
  PlaceOrderBody,
  Problem,
  ShipBody,
  Statement,
  StatementQuery,
  StockUpdatesBody,
  StockUpdatesResult,
  ToShipQuery,
} from "./api-schemas.server";
import { CreateListBody, ListCartResult, ListIdParam, SavedList, SavedListPage } from "./api-list-schemas.server";
import {
  AcceptQuoteBody,
  Quote,
  QuoteIdParam,
  QuoteList,
  QuoteListQuery,
  RequestQuoteBody,
} from "./api-quote-schemas.server";

type Status = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 422 | 429 | 500 | 503;

const PROBLEM_WORDS: Record<Status, string> = {
  400: "The body is not valid JSON",
  401: "No key, or a key that is revoked or no longer fits its owner's role",
  403: "The key lacks the scope",
  404: "Not found (or not yours)",
  405: "Method not allowed",
  409: "Conflicts with the current state",
  413: "The body is too large",
  415: "The body is not JSON",
  422: "Invalid fields (see errors)",
  429: "Too many calls with this key",
  500: "Server error",
  503: "Try again shortly",
};

const retryAfter = z.string().openapi({ description: "Seconds to wait" });

function problems(...statuses: Status[]): RouteConfig["responses"] {
  return Object.fromEntries(
    [401, 403, 429, ...statuses].map((status) => [
      status,
      {
        description: PROBLEM_WORDS[status as Status],
        ...(status === 429 || status === 503 ? { headers: z.object({ "Retry-After": retryAfter }) } : {}),
        content: { "application/problem+json": { schema: Problem } },
      },
    ]),
  );
}

const json = <T extends z.ZodTypeAny>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

const idempotencyHeader = z.object({
  "Idempotency-Key": z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\x21-\x7e]+$/)
    .optional()
    .openapi({ description: "Repeating a call with the same key and body returns the first answer" }),
});

function buildDocument(serverUrl: string) {
  const registry = new OpenAPIRegistry();
  const bearer = registry.registerComponent("securitySchemes", "apiKey", {
    type: "http",
    scheme: "bearer",
    description: "An API key from the dashboard's API keys screen (pw_live_…)",
  });
  const security = [{ [bearer.name]: [] }];

  registry.registerPath({
    method: "get",
    path: "/parts",
    operationId: "listParts",
    tags: ["Parts"],
    summary: "List and search parts (scope read or stock)",
    description:
      "Search text, filters and vehicle as on /parts; cursor pagination (pass nextCursor back as cursor). Prices are the key owner's, in their company's currency; a part with no price list in it is orderable false (its price the US-dollar list, named USD). prices lists the part's lists in every currency.",
    security,
    request: { query: PartListQuery },
    responses: { 200: json(PartList, "A page of parts"), ...problems(422) },
  });
  registry.registerPath({
    method: "get",
    path: "/parts/{number}",
    operationId: "getPartByNumber",
    tags: ["Parts"],
    summary: "One part by part number or OE number, with price and stock (scope read or stock)",
    description:
      "Dashes, spaces and case do not matter. The price is the key owner's, in their company's currency, as in listParts.",
    security,
    request: { params: PartNumberParam },
    responses: { 200: json(PartDetail, "The part"), ...problems(404) },
  });
  registry.registerPath({
    method: "get",
    path: "/orders",
    operationId: "listOrders",
    tags: ["Orders"],
    summary: "Your orders, newest first (scope read)",
    security,
    request: { query: OrderListQuery },
    responses: { 200: json(OrderList, "A page of orders"), ...problems(422) },
  });
  registry.registerPath({
    method: "post",
    path: "/orders",
    operationId: "placeOrder",
    tags: ["Orders"],
    summary: "Place an order by part number and quantity (scope order)",
    description:
      "By card (pay at the shop; the order holds its stock for a limited time) or on account when your account has terms. The order is placed in your company's currency, at its price lists there (the answer's currency says which); a part with no price in it is refused by its line. Send Idempotency-Key to retry safely.",
    security,
    request: {
      headers: idempotencyHeader,
      body: { required: true, content: { "application/json": { schema: PlaceOrderBody } } },
    },
    responses: { 201: json(Order, "The order placed"), ...problems(400, 409, 413, 415, 422) },
  });
  registry.registerPath({
    method: "get",
    path: "/orders/{id}",
    operationId: "getOrder",
    tags: ["Orders"],
    summary: "One of your orders (scope read)",
    security,
    request: { params: OrderIdParam },
    responses: { 200: json(Order, "The order"), ...problems(404) },
  });
  registry.registerPath({
    method: "post",
    path: "/orders/{id}/cancel",
    operationId: "cancelOrder",
    tags: ["Orders"],
    summary: "Cancel an unpaid order (scope order)",
    security,
    request: { params: OrderIdParam },
    responses: { 200: json(Order, "The order, cancelled"), ...problems(404, 409) },
  });
  registry.registerPath({
    method: "get",
    path: "/orders/{id}/documents/{kind}",
    operationId: "getOrderDocument",
    tags: ["Orders"],
    summary:
      "The order's invoice (a Factur-X PDF with its EN 16931 XML inside) or pro-forma as PDF, or with kind=ubl the invoice as UBL 2.1 XML (EN 16931) (scope read)",
    security,
    request: { params: DocumentParam },
    responses: {
      200: {
        description: "The PDF, or the UBL invoice",
        content: {
          "application/pdf": { schema: z.string().openapi({ format: "binary" }) },
          "application/xml": { schema: z.string() },
        },
      },
      ...problems(404, 409, 503),
    },
  });
  registry.registerPath({
    method: "get",
    path: "/statement",
    operationId: "getStatement",
    tags: ["Orders"],
    summary: "Your statement of account: open invoices, balance, overdue, ageing, the ledger for a period (scope read)",
    description:
      "Each invoice, credit note and ledger entry in its own currency. The account's figures at the top are in the account's currency (currency); currencies has them for every currency the account has money in, never added across currencies.",
    security,
    request: { query: StatementQuery },
    responses: { 200: json(Statement, "The statement"), ...problems(400) },
  });
  registerListPaths(registry, security);
  registerQuotePaths(registry, security);
  registry.registerPath({
    method: "post",
    path: "/staff/stock",
    operationId: "updateStock",
    tags: ["Staff"],
    summary: "Update stock and prices of one part or many (scope stock)",
    description: "The CSV import's checks and audit; one bad update and nothing is written.",
    security,
    request: { body: { required: true, content: { "application/json": { schema: StockUpdatesBody } } } },
    responses: { 200: json(StockUpdatesResult, "What changed"), ...problems(400, 409, 413, 415, 422) },
  });
  registry.registerPath({
    method: "get",
    path: "/staff/orders-to-ship",
    operationId: "listOrdersToShip",
    tags: ["Staff"],
    summary: "Orders waiting to ship: paid, or on account (scope orders)",
    security,
    request: { query: ToShipQuery },
    responses: { 200: json(OrderList, "A page of orders"), ...problems(422) },
  });
  registry.registerPath({
    method: "post",
    path: "/staff/orders/{id}/ship",
    operationId: "shipOrder",
    tags: ["Staff"],
    summary:
      "Ship a parcel of an order with its carrier and tracking number: the lines given (each part once), or all that can ship now; the order is part-shipped until every unit has left (scope orders)",
    security,
    request: { params: OrderIdParam, body: { required: true, content: { "application/json": { schema: ShipBody } } } },
    responses: { 200: json(Order, "The order, shipped"), ...problems(400, 404, 409, 413, 415, 422) },
  });
  registry.registerPath({
    method: "post",
    path: "/staff/orders/{id}/payments",
    operationId: "recordPayment",
    tags: ["Staff"],
    summary: "Record a payment received outside the card flow (scope payments)",
    description: "Send Idempotency-Key to retry safely.",
    security,
    request: {
      params: OrderIdParam,
      headers: idempotencyHeader,
      body: { required: true, content: { "application/json": { schema: PaymentBody } } },
    },
    responses: {
      201: json(Order.extend({ paidInFull: z.boolean() }), "The order with the payment"),
      ...problems(400, 404, 409, 413, 415, 422),
    },
  });

  registry.registerPath({
    method: "post",
    path: "/staff/orders/{id}/cancel",
    operationId: "cancelPaidOrder",
    tags: ["Staff"],
    summary:
      "Cancel a paid or invoiced order before any parcel left: its stock goes back, a credit note credits it in full, a card is refunded (scope payments)",
    description:
      "The body is optional: send none, or application/json with a reason (kept on the order and shown to the customer).",
    security,
    request: {
      params: OrderIdParam,
      body: { required: false, content: { "application/json": { schema: CancelBody } } },
    },
    responses: {
      200: json(Order, "The order, cancelled and credited"),
      ...problems(400, 404, 409, 413, 415, 422),
    },
  });
  registry.registerPath({
    method: "post",
    path: "/staff/orders/{id}/credit-notes/{noteId}/payout",
    operationId: "recordPayout",
    tags: ["Staff"],
    summary: "Record a credit note's account credit paid out by bank transfer, once (scope payments)",
    security,
    request: {
      params: CreditNoteParams,
      body: { required: true, content: { "application/json": { schema: PayoutBody } } },
    },
    responses: { 200: json(Order, "The order, its credit note paid out"), ...problems(400, 404, 409, 413, 415, 422) },
  });

  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "PartsWorks API",
      version: "1.0.0",
      description:
        "Parts, prices, stock and orders for customers' systems; stock, shipping and payments for the factory's. Money is {amount, currency}: amount in integer minor units of currency (ISO 4217). currency was always USD until the shop sold in the buyer's currency; it is now the order's currency for an order's amounts (USD, EUR or GBP), and the company's for prices: read it, never assume USD. Times are ISO 8601 UTC; errors are application/problem+json (RFC 9457).",
    },
    servers: [{ url: serverUrl }],
  });
}

/** The saved lists: the key owner's and their company's shared ones, and filling the cart from one. */
function registerListPaths(registry: OpenAPIRegistry, security: { [name: string]: string[] }[]) {
  registry.registerPath({
    method: "get",
    path: "/lists",
    operationId: "listSavedLists",
    tags: ["Lists"],
    summary: "Your saved lists and those your company shares, last changed first (scope read)",
    security,
    responses: { 200: json(SavedListPage, "The lists"), ...problems() },
  });
  registry.registerPath({
    method: "post",
    path: "/lists",
    operationId: "createSavedList",
    tags: ["Lists"],
    summary: "Create a saved list with lines by part number and quantity (scope order)",
    description:
      "A name unique among your lists (any case); each quantity at least the part's minimum order, at most 100,000; the same part twice is one line. One bad line and nothing is saved.",
    security,
    request: { body: { required: true, content: { "application/json": { schema: CreateListBody } } } },
    responses: { 201: json(SavedList, "The list"), ...problems(400, 409, 413, 415, 422) },
  });
  registry.registerPath({
    method: "get",
    path: "/lists/{id}",
    operationId: "getSavedList",
    tags: ["Lists"],
    summary: "One saved list, yours or shared with your company (scope read)",
    security,
    request: { params: ListIdParam },
    responses: { 200: json(SavedList, "The list"), ...problems(404) },
  });
  registry.registerPath({
    method: "post",
    path: "/lists/{id}/cart",
    operationId: "addSavedListToCart",
    tags: ["Lists"],
    summary: "Put every line of a saved list into your cart (scope order)",
    description:
      "Each line is checked as the cart checks it (still sold, sold in your currency, minimum, stock counting what the cart holds): the lines that pass go in, the others come back in refused with the reason.",
    security,
    request: { params: ListIdParam },
    responses: { 200: json(ListCartResult, "What went into the cart"), ...problems(404, 409) },
  });
}

/** Quotes: asking for one, reading them, and accepting a version (which places its order). */
function registerQuotePaths(registry: OpenAPIRegistry, security: { [name: string]: string[] }[]) {
  registry.registerPath({
    method: "get",
    path: "/quotes",
    operationId: "listQuotes",
    tags: ["Quotes"],
    summary: "Your quotes (an owner's or accounts': the company's), newest first, 25 a page (scope read)",
    security,
    request: { query: QuoteListQuery },
    responses: { 200: json(QuoteList, "A page of quotes"), ...problems(422) },
  });
  registry.registerPath({
    method: "post",
    path: "/quotes",
    operationId: "requestQuote",
    tags: ["Quotes"],
    summary: "Ask for a quote of lines by part number and quantity (scope order)",
    description:
      "Each quantity at least the part's minimum order; a part with no price list in your currency may be asked for. The quote is in your company's currency. A bad line is a 422 at its field and nothing is written. Send Idempotency-Key to retry safely.",
    security,
    request: {
      headers: idempotencyHeader,
      body: { required: true, content: { "application/json": { schema: RequestQuoteBody } } },
    },
    responses: { 201: json(Quote, "The quote asked for"), ...problems(400, 409, 413, 415, 422) },
  });
  registry.registerPath({
    method: "get",
    path: "/quotes/{id}",
    operationId: "getQuote",
    tags: ["Quotes"],
    summary: "One of your quotes, with every version sent (scope read)",
    security,
    request: { params: QuoteIdParam },
    responses: { 200: json(Quote, "The quote"), ...problems(404) },
  });
  registry.registerPath({
    method: "post",
    path: "/quotes/{id}/accept",
    operationId: "acceptQuote",
    tags: ["Quotes"],
    summary: "Accept the latest version of a quote: its order is placed at the quoted prices (scope order)",
    description:
      "Delivered and paid as POST /orders takes it, within the same limits. A version replaced, expired or already accepted is a 409; checkout's refusals are as POST /orders says them (lines.N: the N-th line ordered of the version). Send Idempotency-Key to retry safely.",
    security,
    request: {
      params: QuoteIdParam,
      headers: idempotencyHeader,
      body: { required: true, content: { "application/json": { schema: AcceptQuoteBody } } },
    },
    responses: { 201: json(Order, "The order placed"), ...problems(400, 404, 409, 413, 415, 422) },
  });
}

let cached: { url: string; document: ReturnType<typeof buildDocument> } | undefined;

/** The document for this shop's address (built once). */
export function openApiDocument(publicUrl: string) {
  const url = `${publicUrl.replace(/\/$/, "")}/api/v1`;
  if (cached?.url !== url) cached = { url, document: buildDocument(url) };
  return cached.document;
}
