import type { LoaderFunctionArgs } from "@remix-run/node";
import { eachOrder } from "~/orders/model/search.server";
import { type OrderView } from "~/orders/model/view.server";
import { withLedgerFigures, type OrderLedgerFigures } from "~/orders/model/ledger-reads.server";
import { requireAdmin } from "~/services/guards.server";
import { csvDollars, csvFileDay, csvResponse, type CsvColumn } from "~/services/csv.server";
import { orderFilterSchema, toOrderFilter } from "~/forms/order-filters";
import { ORDER_STATE_WORDS, PAYMENT_METHOD_WORDS } from "~/domain/order-states";
import { formatInvoiceNumber } from "~/orders/model/invoice.server";
import { describeShipment } from "~/domain/shipping";
import { paymentLine } from "~/domain/order-payments";
import type { PostalAddress } from "~/domain/address";
import type { Currency } from "~/domain/money";
import { parseForm } from "~/services/form.server";

/**
 * The delivery address, one column a field (for a carrier's import or a mail merge) after the
 * address as printed. Orders placed before addresses had fields leave the field columns empty.
 */
const DELIVERY_FIELDS: [string, keyof PostalAddress][] = [
  ["Delivery name", "name"],
  ["Delivery company", "company"],
  ["Delivery line 1", "line1"],
  ["Delivery line 2", "line2"],
  ["Delivery city", "city"],
  ["Delivery region", "region"],
  ["Delivery postal code", "postalCode"],
  ["Delivery country", "country"],
];

type ExportRow = OrderView & { ledger: OrderLedgerFigures | null };

/** What a money column's header says of its amounts: in the row's Currency. */
const IN_CURRENCY = "(in Currency)";

/** A ledger figure of the order; empty for an order never invoiced (the ledger has nothing of it). */
const ledgerColumn = (header: string, figure: keyof OrderLedgerFigures): CsvColumn<ExportRow> => ({
  header,
  value: (order) => (order.ledger ? csvLedgerAmount(order.ledger[figure], order.currency) : null),
});

/** A signed amount as a spreadsheet reads it: a number, not text (text starting with "-" is escaped as a formula). */
const csvLedgerAmount = (cents: number, currency: Currency) =>
  cents < 0 ? -Number(csvDollars(-cents, currency)) : csvDollars(cents, currency);

/** An amount of the order, in its currency (the Currency column, the last). */
const amountOf = (cents: (order: OrderView) => number) => (order: OrderView) =>
  csvDollars(cents(order), order.currency);

/**
 * One row per order; its lines summarised in one cell ("PW-1001 Brake Pad x 200; ..."). Each row's
 * amounts are in the order's currency, named in its Currency column; the money headers say so rather
 * than name one currency, so a sheet that totals a column by its name notices the change.
 * Columns added later come after the ones before (spreadsheets read those where they always were): the
 * ledger's figures (invoiced, received less payments reversed, credited, and open: + the customer
 * owes, − the shop owes), then the currency.
 */
const COLUMNS: CsvColumn<ExportRow>[] = [
  { header: "Order number", value: (order) => order.number },
  { header: "Placed (UTC)", value: (order) => order.createdAt },
  { header: "Status", value: (order) => ORDER_STATE_WORDS[order.state] },
  { header: "Payment", value: (order) => paymentLine(order) },
  { header: "Invoice date (UTC)", value: (order) => order.invoicedAt },
  { header: "Due (UTC)", value: (order) => order.dueAt },
  { header: "Customer name", value: (order) => order.userName },
  { header: "Customer email", value: (order) => order.userEmail },
  { header: "Company", value: (order) => order.companyName },
  { header: "PO number", value: (order) => order.poNumber },
  // The printed address on one line (a cell keeps no line breaks well in every spreadsheet).
  { header: "Delivery address", value: (order) => order.address.replace(/\s*\n\s*/g, ", ") },
  ...DELIVERY_FIELDS.map(([header, field]): CsvColumn<OrderView> => ({
    header,
    value: (order) => order.deliveryAddress?.[field] ?? null,
  })),
  {
    header: "Lines",
    value: (order) =>
      order.lines.map((line) => `${line.partNumber} ${line.productName} x ${line.quantity}`.trim()).join("; "),
  },
  { header: "Quantity", value: (order) => order.totalQuantity },
  { header: `Net ${IN_CURRENCY}`, value: amountOf((order) => order.netCents) },
  { header: `Tax ${IN_CURRENCY}`, value: amountOf((order) => order.taxCents) },
  { header: "Tax", value: (order) => order.taxLines.map((line) => line.label).join("; ") },
  { header: `Total ${IN_CURRENCY}`, value: amountOf((order) => order.totalCents) },
  { header: `Paid ${IN_CURRENCY}`, value: amountOf((order) => order.paidCents) },
  { header: `Balance ${IN_CURRENCY}`, value: amountOf((order) => order.balanceCents) },
  { header: "Transaction id", value: (order) => order.transactionId },
  {
    header: "Recorded payments",
    value: (order) =>
      order.payments
        .filter((payment) => !payment.reversedAt)
        .map((p) =>
          `${csvDollars(p.amountCents, order.currency)} ${PAYMENT_METHOD_WORDS[p.method]} ${p.receivedOn.slice(0, 10)} ${p.reference}`.trim(),
        )
        .join("; "),
  },
  {
    header: "Invoice number",
    value: (order) => (order.invoiceNumber ? formatInvoiceNumber(order.invoiceNumber) : null),
  },
  { header: "Shipped with", value: (order) => describeShipment(order.shipment)?.text ?? null },
  ledgerColumn(`Invoiced ${IN_CURRENCY}`, "invoicedCents"),
  ledgerColumn(`Received ${IN_CURRENCY}`, "receivedCents"),
  ledgerColumn(`Credited ${IN_CURRENCY}`, "creditedCents"),
  ledgerColumn(`Open ${IN_CURRENCY}`, "openCents"),
  { header: "Currency", value: (order) => order.currency },
];

/** Manage Orders as CSV: the same filters as the page (q, status, from, to), every matching order. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const submission = parseForm(new URL(request.url).searchParams, { schema: orderFilterSchema });
  if (submission.status !== "success") {
    const messages = Object.values(submission.error ?? {}).flat();
    return new Response(`The filters are not valid: ${messages.join(" ")}`, {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  const orders = withLedgerFigures(eachOrder(toOrderFilter(submission.value)));
  return csvResponse(`partsworks-orders-${csvFileDay()}.csv`, COLUMNS, orders);
}
