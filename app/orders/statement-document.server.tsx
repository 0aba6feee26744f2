/**
 * The statement of account as a document: what the screens show (the customer's and staff's), and
 * its PDF (printed like the shop's invoices, from the documents' own CSS) and CSV, the statement an
 * accountant files. Read from the ledger (orders/model/statement.server.ts).
 */
import { renderToStaticMarkup } from "react-dom/server";
// The documents' CSS, from the one component this module may import (orders/documents.server.tsx prints with it too).
import { DOCUMENT_CSS } from "~/components/order-document";
import { company } from "~/content/company";
import { CURRENCIES } from "~/content/currencies";
import { bankDetailsSentence } from "~/domain/bank-accounts";
import { formatCents, formatCurrencyName, formatDate } from "~/format";
import {
  AGEING_BUCKETS,
  AGEING_WORDS,
  balanceCell,
  balanceHeadline,
  periodWords,
  statementPeriodSchema,
  termsLine,
  type StatementPeriod,
} from "~/domain/statement";
import { getCompany } from "~/models/company.server";
import { listMembers } from "~/models/company-member.server";
import { readStatement } from "~/orders/model/statement.server";
import { csvFileDay, csvResponse, type CsvColumn } from "~/services/csv.server";
import { parseForm } from "~/services/form.server";
import { htmlToPdf, PdfBusyError, type PaperSize } from "~/services/pdf.server";
import { canTakeCardPayments } from "~/services/stripe.server";
import { logFailure } from "~/services/log.server";

/**
 * Everything a statement shows, for company `companyId` over `period`; null when there is no such
 * company. `fallbackName` names a customer alone (a company of one has no company name). A statement
 * a currency the account's ledger holds, the company's own first (never one balance across them).
 */
export async function statementView(companyId: string, period: StatementPeriod, fallbackName?: string) {
  const found = await getCompany(companyId);
  if (!found) return null;
  const currency = found.pricing.currency;
  const [{ statements, orders, hasEntries }, members] = await Promise.all([
    readStatement(companyId, period, new Date(), currency),
    found.company.companyName || fallbackName ? Promise.resolve([]) : listMembers(companyId),
  ]);
  const owner = members.find((member) => member.role === "owner") ?? members[0];
  return {
    customer: {
      companyId,
      name: found.company.companyName || fallbackName || owner?.name || "Customer",
      billingAddress: found.company.billingAddress,
      taxId: found.company.taxId,
    },
    terms: termsLine(found.account.termsDays, canTakeCardPayments()),
    /** The currency the company buys in: its credit limit's. */
    currency,
    creditLimitCents: found.account.creditLimitCents,
    period: { from: period.from ?? null, to: period.to ?? null, words: periodWords(period) },
    statements,
    orders: Object.fromEntries([...orders].map(([id, order]) => [id, { number: order.number }])),
    hasEntries,
  };
}

export type StatementView = NonNullable<Awaited<ReturnType<typeof statementView>>>;
type Statement = StatementView["statements"][number];

/** What the account holds in one currency, printed: its entries with the running balance, its ageing, how to pay it. */
function CurrencySection({ view, statement }: { view: StatementView; statement: Statement }) {
  const { currency } = statement;
  const money = (cents: number) => formatCents(cents, { currency });
  const orderNumber = (id: string) => view.orders[id]?.number ?? "";
  return (
    <>
      <table>
        <caption>Entries in {formatCurrencyName(currency)}, oldest first</caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Details</th>
            <th scope="col">Order</th>
            <th scope="col" className="pw-num">
              Charges
            </th>
            <th scope="col" className="pw-num">
              Credits
            </th>
            <th scope="col" className="pw-num">
              Balance
            </th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td colSpan={5}>Opening balance: {balanceHeadline(statement.openingCents, currency)}</td>
            <td className="pw-num">{balanceCell(statement.openingCents, currency)}</td>
          </tr>
          {statement.lines.map((line) => (
            <tr key={line.key}>
              <td>{formatDate(line.at)}</td>
              <td>
                {line.description}
                {line.kind === "credit-applied" && !line.creditCents ? "" : ` ${line.document}`}
                {line.status ? ` (${line.status})` : ""}
              </td>
              <td>{orderNumber(line.orderId)}</td>
              <td className="pw-num">{line.chargeCents ? money(line.chargeCents) : ""}</td>
              <td className="pw-num">{line.creditCents ? money(line.creditCents) : ""}</td>
              <td className="pw-num">{balanceCell(line.balanceCents, currency)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={5}>
              Closing balance: {statement.headline}
            </th>
            <td className="pw-num">{balanceCell(statement.closingCents, currency)}</td>
          </tr>
        </tfoot>
      </table>
      <table className="pw-keep" style={{ marginTop: 16 }}>
        <caption>What you owe us in {CURRENCIES[currency].plural}, by how long it is overdue</caption>
        <thead>
          <tr>
            {AGEING_BUCKETS.map((bucket) => (
              <th key={bucket} scope="col" className="pw-num">
                {AGEING_WORDS[bucket]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr>
            {AGEING_BUCKETS.map((bucket) => (
              <td key={bucket} className="pw-num">
                {money(statement.ageing[bucket])}
              </td>
            ))}
          </tr>
        </tbody>
      </table>
      {statement.closingCents > 0 ? (
        <section className="pw-bank pw-keep">
          <h2>Pay {money(statement.closingCents)} by bank transfer</h2>
          <p>{bankDetailsSentence(currency)}. Quote the order number (SO-…) of each invoice.</p>
        </section>
      ) : null}
    </>
  );
}

/** The statement as printed: the invoices' layout, the seller's details, and a section a currency. */
function StatementDocument({ view }: { view: StatementView }) {
  const { statements, customer } = view;
  return (
    <article className="pw-doc" aria-labelledby="document-title">
      <header className="pw-head">
        <div>
          <h1 id="document-title">Statement of account</h1>
          {statements.map((statement) => (
            <p key={statement.currency} className="pw-note">
              {statement.headline}
              {statements.length > 1 ? ` (${statement.currency})` : ""}
            </p>
          ))}
          <dl className="pw-meta" style={{ marginTop: 8 }}>
            <dt>Period</dt>
            <dd>{view.period.words}</dd>
            <dt>Statement date</dt>
            <dd>{formatDate(statements[0].asOf)}</dd>
            <dt>Terms</dt>
            <dd>{view.terms}</dd>
            <dt>Credit limit</dt>
            <dd>{formatCents(view.creditLimitCents, { currency: view.currency })}</dd>
          </dl>
        </div>
        <div>
          <h2>From</h2>
          <p>
            <strong>{company.legalName}</strong>
          </p>
          <p>{company.address.street}</p>
          <p>
            {company.address.city}, {company.address.region} {company.address.postalCode}
          </p>
          <p>{company.email}</p>
          <p>{company.phone.display}</p>
        </div>
      </header>
      <div className="pw-parties">
        <section>
          <h2>Customer</h2>
          <p>
            <strong>{customer.name}</strong>
          </p>
          {customer.taxId ? <p>Tax number: {customer.taxId}</p> : null}
          {customer.billingAddress ? <p className="pw-pre">{customer.billingAddress}</p> : null}
        </section>
      </div>
      {statements.map((statement) => (
        <CurrencySection key={statement.currency} view={view} statement={statement} />
      ))}
      <footer className="pw-foot pw-keep">
        <p>
          {company.legalName} · {company.email} · {company.phone.display}
        </p>
      </footer>
    </article>
  );
}

export function renderStatementHtml(view: StatementView) {
  const markup = renderToStaticMarkup(
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <title>Statement of account</title>
        <style dangerouslySetInnerHTML={{ __html: DOCUMENT_CSS }} />
      </head>
      <body style={{ margin: 0, background: "#fff" }}>
        <main>
          <StatementDocument view={view} />
        </main>
      </body>
    </html>,
  );
  return `<!DOCTYPE html>${markup}`;
}

/** The download's name: partsworks-statement-2026-01-01-to-2026-01-31.pdf (open ends: "start", today). */
export function statementFileName(view: StatementView, extension: "pdf" | "csv") {
  return `partsworks-statement-${view.period.from ?? "start"}-to-${view.period.to ?? csvFileDay()}.${extension}`;
}

type Line = Statement["lines"][number];
/** A CSV row: the opening and closing balances of a currency, or one of its lines. */
type Row = { at: string; details: string; line?: Line; balanceCents: number; currency: Statement["currency"] };

/** An amount as a number in its currency's major unit (a spreadsheet reads it as one, a minus included: below zero, we owe you). */
const amount = (cents: number, currency: Statement["currency"]) => cents / 10 ** CURRENCIES[currency].minorUnits;

/**
 * The statement's columns; each row's amounts are in its Currency, the last column (a currency's
 * rows follow each other, from its opening balance to its closing one, never summed with another's).
 */
const CSV_COLUMNS = (view: StatementView): CsvColumn<Row>[] => [
  { header: "Date (UTC)", value: (row) => row.at.slice(0, 10) },
  { header: "Details", value: (row) => row.details },
  { header: "Document", value: (row) => (row.line ? row.line.document : "") },
  { header: "Order", value: (row) => (row.line ? (view.orders[row.line.orderId]?.number ?? "") : "") },
  { header: "Charges", value: (row) => (row.line?.chargeCents ? amount(row.line.chargeCents, row.currency) : "") },
  { header: "Credits", value: (row) => (row.line?.creditCents ? amount(row.line.creditCents, row.currency) : "") },
  { header: "Balance (below zero: we owe you)", value: (row) => amount(row.balanceCents, row.currency) },
  { header: "Status", value: (row) => row.line?.status ?? "" },
  { header: "Currency", value: (row) => row.currency },
];

function csvRows(view: StatementView, statement: Statement): Row[] {
  const { currency } = statement;
  const start = view.period.from ? `${view.period.from}T00:00:00.000Z` : (statement.lines[0]?.at ?? statement.asOf);
  return [
    { at: start, details: "Opening balance", balanceCents: statement.openingCents, currency },
    ...statement.lines.map((line) => ({
      at: line.at,
      details: line.description,
      line,
      balanceCents: line.balanceCents,
      currency,
    })),
    {
      at: statement.asOf,
      details: `Closing balance: ${statement.headline}`,
      balanceCents: statement.closingCents,
      currency,
    },
  ];
}

export function statementCsv(view: StatementView) {
  const rows = view.statements.flatMap((statement) => csvRows(view, statement));
  return csvResponse(
    statementFileName(view, "csv"),
    CSV_COLUMNS(view),
    (async function* () {
      yield* rows;
    })(),
  );
}

const PDF_UNAVAILABLE = "The PDF could not be made just now. Please try again, or download the CSV instead.";
const PDF_BUSY = "Other PDFs are still being made: try again in a moment, or download the CSV instead.";

export async function statementPdf(
  view: StatementView,
  paper: PaperSize,
  who: { requester: string; company?: string },
) {
  let pdf: Buffer;
  try {
    pdf = await htmlToPdf(renderStatementHtml(view), paper, who);
  } catch (error) {
    if (!(error instanceof PdfBusyError)) logFailure("Statement PDF failed", error);
    return new Response(error instanceof PdfBusyError ? PDF_BUSY : PDF_UNAVAILABLE, {
      status: 503,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "10", "Cache-Control": "no-store" },
    });
  }
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${statementFileName(view, "pdf")}"`,
      "Content-Length": String(pdf.length),
      "Cache-Control": "private, no-store",
      "X-Robots-Tag": "noindex",
    },
  });
}

/**
 * The statement's PDF or CSV download for company `companyId`, over the period in the address
 * (?from=&to=, as the screen's filter): 400 with the field's message for a bad date.
 */
export async function statementDownload(
  request: Request,
  companyId: string,
  format: "pdf" | "csv",
  who: { requester: string; fallbackName?: string },
) {
  const search = new URL(request.url).searchParams;
  const submission = parseForm(search, { schema: statementPeriodSchema });
  if (submission.status !== "success") {
    const errors = Object.values(submission.error ?? {}).flat();
    return new Response(errors.join(" ") || "Enter a date such as 2026-01-31", {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  const view = await statementView(companyId, submission.value, who.fallbackName);
  if (!view) return new Response("There is no company with that id.", { status: 404 });
  if (format === "csv") return statementCsv(view);
  const paper = search.get("paper")?.toLowerCase() === "a4" ? "A4" : "Letter";
  return statementPdf(view, paper, { requester: who.requester, company: companyId });
}
