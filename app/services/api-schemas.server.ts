/**
 * The API's request and answer schemas: built from the screens' own fields (delivery, shipment,
 * payment, part search), so a rule lives once; the OpenAPI document is generated from them.
 */
import { LEDGER_CURRENCIES, LEDGER_KINDS } from "~/domain/ledger";
import { CURRENCY_CODES, type Currency } from "~/domain/money";
import { AGEING_BUCKETS, AGEING_WORDS, type AgeingBucket } from "~/domain/statement";
import { filterDay } from "~/domain/day";
import { CREDIT_REASONS, REFUND_STATUSES } from "~/domain/credit-notes";
import { extendZodWithOpenApi } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { FIRST_MODEL_YEAR, LAST_MODEL_YEAR } from "~/content/vehicles";
import { CATEGORIES } from "~/domain/catalogue";
import { checkAddress, postalAddressObject } from "~/domain/address";
import { MAX_AMOUNT_CENTS, paymentFields, shipmentFields, trackingGiven } from "~/forms/order-forms";
import { MAX_ORDER_LINES, MAX_LINE_QUANTITY } from "~/domain/order-lines";
import { ORDER_STATES, PAYMENT_METHODS } from "~/domain/order-states";
import { ORDER_PAYMENT_METHODS } from "~/domain/order-payments";
import { PART_SORTS } from "~/domain/search";
import { formatQuantity } from "~/format";
import { partsSearchSchema } from "./parts-search.server";
import { backorderFields } from "~/forms/catalogue-forms";
import { deliveryFields, MAX_PRICE_DOLLARS, MAX_STOCK } from "~/forms/shop-forms";
import { MAX_IMPORT_LINES } from "~/forms/stock-import";
import { plainText } from "~/domain/plain-text";
import { cancelReason } from "~/forms/cancel-reason";

extendZodWithOpenApi(z);

const isoTime = z.string().datetime().openapi({ description: "ISO 8601, UTC", example: "2026-01-31T09:30:00.000Z" });

/**
 * The currencies the shop sells in. Widened from USD alone when the shop began selling in the buyer's
 * currency: a client reads each amount's currency rather than assuming dollars.
 */
export const CurrencyCode = z.enum(CURRENCY_CODES as [Currency, ...Currency[]]).openapi("Currency", {
  description:
    "ISO 4217 code. Until the shop sold in the buyer's currency every amount was USD; EUR and GBP were added then, and more may be: read it, never assume USD.",
  example: "USD",
});

export const Money = z
  .object({
    amount: z
      .number()
      .int()
      .openapi({ description: "Integer minor units of currency (cents, euro cents, pence)", example: 3700 }),
    currency: CurrencyCode,
  })
  .openapi("Money", {
    description:
      "An amount with its currency. An order's amounts are all in the order's currency; a part's price is in the key owner's company's currency (see Part.orderable).",
  });

const VolumeBreak = z.object({
  minQuantity: z.number().int().openapi({ description: "From this many units in one order" }),
  percentOff: z.number().nullable().openapi({ description: "Percent off the list price, or null" }),
  unitPrice: Money.nullable().openapi({ description: "A price per unit in the list's currency, or null" }),
});

const PriceListJson = z
  .object({
    currency: CurrencyCode,
    listPrice: Money.openapi({ description: "The list price of a unit in this currency" }),
    volumeBreaks: z.array(VolumeBreak).openapi({ description: "Sorted by quantity; empty: none" }),
  })
  .openapi("PriceList", {
    description:
      "A part's list price and volume breaks in one currency. A price group's discount or net price applies on top (Part.price shows the key owner's).",
  });

export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    errors: z
      .array(z.object({ field: z.string(), message: z.string() }))
      .optional()
      .openapi({ description: "The fields a validation error is about" }),
  })
  .passthrough()
  .openapi("Problem");

// --- Parts ----------------------------------------------------------------------------------------

export const Part = z
  .object({
    id: z.string(),
    partNumber: z.string().openapi({ example: "PW-1003" }),
    name: z.string(),
    description: z.string(),
    brand: z.string(),
    category: z.enum(CATEGORIES),
    price: Money.openapi({
      description:
        "The key owner's price of a unit at the minimum order, in their company's currency (a staff key: USD). When the part has no price list in that currency (orderable false) it is the US-dollar list price, named USD, for reference only: it is never converted.",
    }),
    minOrderQuantity: z.number().int(),
    availableQuantity: z.number().int(),
    inStock: z.boolean(),
    listPrice: Money.optional().openapi({
      description:
        "The list price of a unit in price's currency, when the key owner's own price (price group) is lower; absent otherwise",
    }),
    orderable: z.boolean().openapi({
      description:
        "false when the part has no price list in the key owner's company's currency: an order of it is refused until there is one (notOrderableReason says so). It says nothing of stock: see inStock and availableQuantity.",
    }),
    notOrderableReason: z.string().optional().openapi({
      description: "Why the part cannot be ordered in your currency; present only when orderable is false",
    }),
    prices: z.array(PriceListJson).openapi({
      description:
        "The part's list prices in every currency it is sold in, USD first; a currency absent is not sold in",
    }),
  })
  .openapi("Part");

export const PartDetail = Part.extend({
  oeNumbers: z.array(z.string()),
  fitment: z.array(
    z.object({
      make: z.string(),
      model: z.string(),
      yearFrom: z.number().int(),
      yearTo: z.number().int(),
      engine: z.string().nullable(),
    }),
  ),
}).openapi("PartDetail");

const limit = (max: number, fallback: number) =>
  z.coerce
    .number({ invalid_type_error: `limit is a whole number from 1 to ${max}` })
    .int(`limit is a whole number from 1 to ${max}`)
    .min(1, `limit is a whole number from 1 to ${max}`)
    .max(max, `limit is a whole number from 1 to ${max}`)
    .default(fallback);

const cursor = z.string().max(200).optional().openapi({ description: "nextCursor of the previous page" });

const yearMessage = `Choose a year from ${FIRST_MODEL_YEAR} to ${LAST_MODEL_YEAR}`;

/** The catalogue's search form, as query parameters (the same fields and messages as /parts). */
export const PartListQuery = partsSearchSchema
  .pick({ q: true, category: true, brand: true, make: true })
  .extend({
    // An API caller is told of a bad value (the page falls back to a default instead).
    sort: z.enum(PART_SORTS, { errorMap: () => ({ message: `Sort by ${PART_SORTS.join(", ")}` }) }).default("newest"),
    stock: z.literal("in", { errorMap: () => ({ message: "stock=in lists parts in stock only" }) }).optional(),
    model: z.string().max(40).optional(),
    year: z.coerce
      .number({ invalid_type_error: yearMessage })
      .int(yearMessage)
      .min(FIRST_MODEL_YEAR, yearMessage)
      .max(LAST_MODEL_YEAR, yearMessage)
      .optional(),
    cursor,
    limit: limit(100, 25),
  })
  .strict();

export const PartList = z
  .object({
    data: z.array(Part),
    nextCursor: z.string().nullable(),
    notFound: z.array(z.string()).optional().openapi({
      description: "For q of several part numbers: the numbers typed that name no part (data: the others, in order)",
    }),
    vehicle: z
      .object({ make: z.string(), model: z.string().nullable(), year: z.number().int().nullable() })
      .optional()
      .openapi({ description: "The vehicle named in q: the parts listed fit it" }),
    forgiven: z
      .boolean()
      .optional()
      .openapi({ description: "True when no part had the words as typed and typing errors were forgiven" }),
  })
  .openapi("PartList");

export const PartNumberParam = z.object({
  number: z.string().min(1).max(40).openapi({ description: "A part number or an OE number", example: "PW-1003" }),
});

// --- Orders -----------------------------------------------------------------------------------------

/** A postal address as the API takes and gives it (domain/address.ts): tax follows its country and region. */
export const ApiPostalAddress = postalAddressObject
  .strict()
  .superRefine(checkAddress)
  .openapi("PostalAddress", {
    description:
      "A postal address. country: ISO 3166-1 alpha-2. region: the state or province code for US, CA and AU (required there, empty elsewhere). postalCode: checked against the country's format where one is known, and for US, CA and AU against the region (a ZIP code of another state is refused). Tax is decided from country and region only.",
    example: {
      name: "Receiving",
      company: "Lakeside Fleet",
      line1: "400 Dock Street",
      line2: "",
      city: "Toledo",
      region: "OH",
      postalCode: "43604",
      country: "US",
    },
  });

export const Order = z
  .object({
    id: z.string(),
    number: z.string().openapi({ example: "SO-100042" }),
    state: z.enum(ORDER_STATES),
    currency: CurrencyCode.openapi({
      description:
        "The currency of the sale (the company's when it was placed): every amount of the order, its lines, tax, payments and credit notes, is in it",
    }),
    paymentMethod: z.enum(ORDER_PAYMENT_METHODS),
    poNumber: z.string().nullable(),
    lines: z.array(
      z.object({
        partNumber: z.string(),
        name: z.string(),
        quantity: z.number().int(),
        unitPrice: Money,
        listUnitPrice: Money.optional().openapi({
          description: "The list price of a unit, when the line's is lower; absent otherwise",
        }),
        lineTotal: Money,
        backordered: z.number().int().openapi({ description: "Units still waiting for stock" }),
        backorderExpectedOn: z
          .string()
          .nullable()
          .openapi({ description: "The day (YYYY-MM-DD) backordered units were expected when ordered" }),
        shipped: z.number().int().openapi({ description: "Units shipped so far" }),
      }),
    ),
    net: Money,
    tax: Money,
    taxLines: z.array(
      z.object({
        label: z.string().openapi({ example: "Michigan sales tax 6%" }),
        rate: z.number().openapi({ description: "Percent" }),
        base: Money,
        amount: Money,
        note: z.string().nullable().openapi({ description: "Why no tax is charged (reverse charge, exemption)" }),
      }),
    ),
    total: Money.openapi({ description: "Net plus tax" }),
    paid: Money,
    balance: Money,
    creditApplied: z
      .array(
        z.object({
          creditNote: z.string().openapi({ example: "CN-000003" }),
          amount: Money,
          appliedAt: z.string().openapi({ format: "date-time" }),
        }),
      )
      .openapi({
        description:
          "Account credit (from the company's credit notes) taken off this order; the balance and a card payment count it",
      }),
    address: z.string().openapi({ description: "The delivery address as printed" }),
    deliveryAddress: ApiPostalAddress.nullable().openapi({
      description: "The delivery address field by field; null on orders placed before addresses had fields",
    }),
    phone: z.string(),
    createdAt: isoTime,
    holdUntil: isoTime.nullable(),
    invoicedAt: isoTime.nullable().openapi({ description: "The invoice date (null until the order is invoiced)" }),
    dueAt: isoTime.nullable().openapi({ description: "The invoice date plus the terms (orders on account)" }),
    paidAt: isoTime.nullable(),
    payments: z
      .array(
        z.object({
          id: z.string(),
          amount: Money,
          method: z.enum(PAYMENT_METHODS),
          receivedOn: z.string().openapi({ description: "YYYY-MM-DD", example: "2026-11-20" }),
          reference: z.string().nullable(),
          reversed: z.boolean(),
        }),
      )
      .openapi({ description: "Money recorded by staff (bank transfer, cheque, cash)" }),
    shippedAt: isoTime.nullable(),
    shipment: z.object({ carrier: z.string(), trackingNumber: z.string().nullable() }).nullable(),
    shipments: z
      .array(
        z.object({
          id: z.string(),
          number: z.number().int().openapi({ description: "1 for the first parcel, 2 for the next, …" }),
          carrier: z.string(),
          trackingNumber: z.string().nullable(),
          shippedAt: isoTime,
          lines: z.array(z.object({ partNumber: z.string(), name: z.string(), quantity: z.number().int() })),
        }),
      )
      .openapi({ description: "Every parcel the order left in (webhook order.shipment.created for each)" }),
    invoiceNumber: z.string().nullable(),
    credited: Money.openapi({ description: "The sum of the order's credit notes" }),
    refunded: Money.openapi({ description: "What Stripe confirmed it refunded to the card" }),
    creditNotes: z
      .array(
        z.object({
          id: z.string(),
          number: z.string().openapi({ example: "CN-000042" }),
          issuedAt: isoTime,
          reason: z.enum(CREDIT_REASONS),
          returnNumber: z.string().nullable().openapi({ description: "The return (RMA-…) it credits" }),
          lines: z.array(
            z.object({ partNumber: z.string(), name: z.string(), quantity: z.number().int(), net: Money }),
          ),
          net: Money,
          tax: Money,
          total: Money,
          refund: Money.openapi({ description: "To the card, through Stripe" }),
          applied: Money.openapi({ description: "Taken off what was still owed on the invoice" }),
          accountCredit: Money.openapi({ description: "Credited to the company's account (its statement)" }),
          refundStatus: z.enum(REFUND_STATUSES).nullable(),
          refundedAt: isoTime.nullable(),
          paidOutAt: isoTime.nullable().openapi({ description: "When the account credit was paid out by bank" }),
        }),
      )
      .openapi({
        description:
          "Credit notes (webhook order.credit_note.created for each; order.refunded when a card refund succeeds). Documents: credit-note and credit-note-ubl with ?number=",
      }),
    customer: z.object({ name: z.string(), email: z.string(), companyName: z.string().nullable() }),
  })
  .openapi("Order", {
    description: "An order; every Money in it is in the order's currency (orders before currencies: USD).",
  });

export const OrderList = z.object({ data: z.array(Order), nextCursor: z.string().nullable() }).openapi("OrderList");

export const OrderListQuery = z.object({ cursor, limit: limit(100, 25) }).strict();

export const OrderIdParam = z.object({ id: z.string().openapi({ description: "The order's id" }) });

export const CreditNoteParams = OrderIdParam.extend({
  noteId: z.string().openapi({ description: "The credit note's id (creditNotes[].id of the order)" }),
});

/** A line's part as clients send it: its number or an OE number (orders and saved lists alike). */
export const ApiPartNumber = z
  .string({ required_error: "Give the part number" })
  .trim()
  .min(1, "Give the part number")
  .max(40, "A part number is at most 40 characters")
  .openapi({ description: "A part number or an OE number", example: "PW-1003" });

export const PlaceOrderBody = z
  .object({
    lines: z
      .array(
        z
          .object({
            partNumber: ApiPartNumber,
            quantity: z
              .number({ required_error: "Give the quantity", invalid_type_error: "Quantity must be a whole number" })
              .int("Quantity must be a whole number")
              .min(1, "Quantity must be at least 1")
              .max(MAX_LINE_QUANTITY, `Quantity must be at most ${formatQuantity(MAX_LINE_QUANTITY)}`),
          })
          .strict(),
        { required_error: "Give at least one line" },
      )
      .min(1, "Give at least one line")
      .max(MAX_ORDER_LINES, `At most ${MAX_ORDER_LINES} lines in one order`),
    phone: deliveryFields.phone,
    deliveryAddress: ApiPostalAddress,
    poNumber: deliveryFields.poNumber,
    payment: deliveryFields.payment.openapi({
      description:
        "card (the default: pay at the shop), bank-transfer (pay against the pro-forma; the order holds its stock until the money is recorded) or account (customers with terms)",
    }),
  })
  .strict()
  .openapi("PlaceOrderBody");

export const DocumentParam = z.object({
  id: z.string(),
  kind: z.enum(["invoice", "pro-forma", "ubl", "credit-note", "credit-note-ubl"]),
});

/** The account's figures in one currency: amounts of other currencies are never counted in. */
const AccountFigures = {
  balance: Money.openapi({ description: "Open invoices less the credit on the account (below zero: in credit)" }),
  accountCredit: Money.openapi({ description: "What credit notes credited to the account" }),
  overdue: Money.openapi({ description: "What overdue invoices still owe" }),
  owes: Money.openapi({ description: "What you owe us at the period's end (now without to): your open invoices" }),
  owed: Money.openapi({
    description: "What we owe you at the period's end: credit not yet used, refunded or paid out",
  }),
  ageing: z
    .object(
      Object.fromEntries(
        AGEING_BUCKETS.map((bucket) => [bucket, Money.openapi({ description: AGEING_WORDS[bucket] })]),
      ) as Record<AgeingBucket, typeof Money>,
    )
    .openapi({
      description:
        "What you owe us at the period's end by days past each invoice's due date (an invoice without terms is due when invoiced)",
    }),
  opening: Money.openapi({
    description: "The balance before the period: above zero you owe us, below zero we owe you",
  }),
  closing: Money.openapi({
    description: "The balance at the period's end: above zero you owe us, below zero we owe you",
  }),
};

export const Statement = z
  .object({
    termsDays: z.number().int(),
    currency: CurrencyCode.openapi({
      description:
        "The account's currency (the company's). creditLimit, balance, accountCredit, overdue, owes, owed, ageing and period.opening/closing count the amounts in it only; currencies has the same figures for every currency the account has money in",
    }),
    creditLimit: Money.openapi({ description: "In the account's currency" }),
    balance: AccountFigures.balance,
    accountCredit: AccountFigures.accountCredit,
    overdue: AccountFigures.overdue,
    currencies: z.array(z.object({ currency: CurrencyCode, ...AccountFigures })).openapi({
      description:
        "The account's figures per currency, the account's currency first (always there), then each other currency the account has invoices, credit or ledger entries in. Amounts of two currencies are never added.",
    }),
    creditNotes: z.array(
      z.object({
        number: z.string(),
        orderId: z.string(),
        orderNumber: z.string(),
        issuedAt: isoTime,
        total: Money,
        accountCredit: Money,
        settled: z.string().openapi({ description: "Where the money went, in words" }),
      }),
    ),
    invoices: z.array(
      z.object({
        orderId: z.string(),
        number: z.string(),
        invoiceNumber: z.string().nullable(),
        state: z.enum(ORDER_STATES),
        invoicedAt: isoTime,
        dueAt: isoTime.nullable(),
        total: Money,
        paid: Money,
        balance: Money,
        poNumber: z.string().nullable(),
      }),
    ),
    ledger: z
      .object({
        balances: z.array(
          z.object({
            currency: z.enum(LEDGER_CURRENCIES),
            balance: z
              .number()
              .int()
              .openapi({ description: "Minor units: above zero you owe us, below zero we owe you" }),
          }),
        ),
        entries: z.array(
          z.object({
            at: isoTime,
            kind: z.enum(LEDGER_KINDS),
            amount: z.number().int().openapi({ description: "Minor units: + what you owe grows, − it shrinks" }),
            currency: z.enum(LEDGER_CURRENCIES),
            document: z.string().openapi({ description: "INV-…, CN-…, a payment's reference or a refund's id" }),
            orderId: z.string(),
            balance: z.number().int().openapi({ description: "The running balance in this currency after the entry" }),
          }),
        ),
      })
      .openapi({
        description:
          "The account's ledger, oldest first: every invoice, payment, reversal, credit note, refund and payout, with the running balance. With from or to, the entries of that period, the running balance going on from the period's opening balance",
      }),
    owes: AccountFigures.owes,
    owed: AccountFigures.owed,
    ageing: AccountFigures.ageing,
    period: z.object({
      from: z.string().nullable().openapi({ description: "The first day (UTC) asked for, or null" }),
      to: z.string().nullable().openapi({ description: "The last day (UTC, included) asked for, or null" }),
      asOf: isoTime.openapi({ description: "When owes, owed and ageing are counted: the end of to, or now if sooner" }),
      opening: AccountFigures.opening,
      closing: AccountFigures.closing,
    }),
  })
  .openapi("Statement");

export const StatementQuery = z.object({
  from: filterDay
    .optional()
    .openapi({ description: "The first day of the period (YYYY-MM-DD, UTC)", example: "2026-01-01" }),
  to: filterDay.optional().openapi({
    description: "The last day of the period, included (YYYY-MM-DD, UTC); not before from",
    example: "2026-01-31",
  }),
});

// --- Staff ------------------------------------------------------------------------------------------

export const PayoutBody = z
  .object({
    reference: plainText(
      z
        .string({ required_error: "Give the bank transfer's reference", invalid_type_error: "The reference is text" })
        .trim()
        .min(1, "Give the bank transfer's reference")
        .max(60, "A reference is at most 60 characters"),
      "A reference",
    ),
  })
  .strict()
  .openapi("PayoutBody");

/** Cancelling a paid order: the body is optional; a reason given is kept on the order and shown to its customer. */
export const CancelBody = z
  .object({
    reason: cancelReason.optional().openapi({
      description:
        "Why the order is cancelled, 3 to 300 characters of plain text: kept on the order, shown to the customer on the order page and in the mail",
    }),
  })
  .strict()
  .openapi("CancelBody");

/** A parcel names each part once: a part given twice would print, mail and count its units twice. */
function eachPartOnce(lines: { partNumber: string }[], ctx: z.RefinementCtx) {
  const seen = new Set<string>();
  lines.forEach((line, index) => {
    const partNumber = line.partNumber.trim().toUpperCase();
    if (seen.has(partNumber)) {
      ctx.addIssue({
        code: "custom",
        path: [index, "partNumber"],
        message: `${line.partNumber} is already a line of this parcel: give each part once, with all its units`,
      });
    }
    seen.add(partNumber);
  });
}

export const ShipBody = z
  .object({
    ...shipmentFields,
    lines: z
      .array(
        z
          .object({
            partNumber: z.string().max(32),
            quantity: z
              .number({ invalid_type_error: "A quantity is a whole number of units" })
              .int("A quantity is a whole number of units")
              .min(1, "A quantity is at least 1")
              .max(MAX_LINE_QUANTITY, "That quantity is too large"),
          })
          .strict(),
      )
      .min(1)
      .max(MAX_ORDER_LINES)
      .superRefine(eachPartOnce)
      .optional()
      .openapi({
        description:
          "The units of this parcel by part number, each part once (a part given twice is refused with 422); absent: every unit that can ship now",
      }),
  })
  .strict()
  .refine(trackingGiven.check, trackingGiven.message)
  .openapi("ShipBody");

export const PaymentBody = z
  .object({
    amount: z
      .number({
        required_error: "Give the amount in cents",
        invalid_type_error: "The amount is a whole number of cents",
      })
      .int("The amount is a whole number of cents")
      .min(1, "The amount must be more than 0")
      .max(MAX_AMOUNT_CENTS, "That amount is too large")
      .openapi({
        description: "Integer minor units of the order's currency (its currency field: cents, euro cents, pence)",
      }),
    ...paymentFields,
    secondPayment: z.boolean({ invalid_type_error: "secondPayment is true or false" }).optional().openapi({
      description:
        "true records a payment that repeats one already on the order (the same reference, or the same amount within a day); without it such a payment is refused with 409",
    }),
  })
  .strict()
  .openapi("PaymentBody");

export const StockUpdatesBody = z
  .object({
    updates: z
      .array(
        z
          .object({
            partNumber: z
              .string({ required_error: "Give the part number" })
              .trim()
              .min(1, "Give the part number")
              .max(32, "A part number is at most 32 characters"),
            stock: z
              .number({ invalid_type_error: "Stock is a whole number" })
              .int("Stock is a whole number")
              .min(0, "Stock cannot be negative")
              .max(MAX_STOCK, `Stock is at most ${formatQuantity(MAX_STOCK)}`)
              .optional(),
            price: z
              .number({ invalid_type_error: "The price is a whole number of cents" })
              .int("The price is a whole number of cents")
              .min(100, "The price is at least 100 cents ($1)")
              .max(MAX_PRICE_DOLLARS * 100, "That price is too large")
              .multipleOf(100, "Prices are whole dollars: give a multiple of 100 cents")
              .optional()
              .openapi({
                description:
                  "The US-dollar list price in cents, whole dollars (a part's lists in other currencies are edited on its page)",
              }),
            backorder: z
              .object({
                allowed: z.boolean({ required_error: "Say whether the part may be backordered" }),
                restockOn: backorderFields.restockOn.nullable(),
                leadTimeDays: backorderFields.leadTimeDays.nullable(),
              })
              .strict()
              .optional()
              .openapi({
                description:
                  "Whether orders beyond the stock wait on backorder, and when stock is expected (a day, or else a lead time in days)",
              }),
          })
          .strict()
          .refine(
            (update) => update.stock !== undefined || update.price !== undefined || update.backorder !== undefined,
            { message: "Give stock, price, backorder or several", path: ["stock"] },
          ),
      )
      .min(1, "Give at least one update")
      .max(MAX_IMPORT_LINES, `At most ${MAX_IMPORT_LINES} updates at a time`),
  })
  .strict()
  .openapi("StockUpdatesBody");

export const StockUpdatesResult = z
  .object({
    applied: z.number().int(),
    unchanged: z.number().int(),
    changes: z.array(
      z.object({
        partNumber: z.string(),
        field: z.enum(["stock", "price"]),
        before: z.number().int().openapi({ description: "Units, or for price the US-dollar list price in cents" }),
        after: z.number().int().openapi({ description: "Units, or for price the US-dollar list price in cents" }),
      }),
    ),
  })
  .openapi("StockUpdatesResult");

export const ToShipQuery = OrderListQuery;
