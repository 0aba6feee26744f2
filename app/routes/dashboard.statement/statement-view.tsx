/**
 * The statement of account as the screens show it: the customer's (/dashboard/statement) and
 * staff's (a company's record). Its data is the loader's (orders/statement-document.server.tsx).
 */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, Link, useLocation, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { Field, SubmitButton } from "~/components/forms";
import { DataTable, type Column } from "~/components/ui/data-table";
import { creditNotePath } from "~/domain/credit-notes";
import { documentPath } from "~/domain/order-document";
import {
  AGEING_BUCKETS,
  AGEING_WORDS,
  balanceCell,
  balanceHeadline,
  statementPeriodSchema,
  type Statement,
} from "~/domain/statement";
import { CURRENCIES } from "~/content/currencies";
import type { Currency } from "~/domain/money";
import { formatCents, formatCurrencyName, formatDate } from "~/format";

export type StatementScreenData = {
  customer: { name: string };
  terms: string;
  /** The currency the company buys in: its credit limit's. */
  currency: Currency;
  creditLimitCents: number;
  period: { from: string | null; to: string | null; words: string };
  /** One a currency the account holds, each on its own: never one balance across currencies. */
  statements: Statement[];
  orders: Record<string, { number: string }>;
  hasEntries: boolean;
};

const linkClass = "inline-flex min-h-11 items-center text-brand-700 underline md:min-h-6";

const LINE_COLUMNS: Column[] = [
  { label: "Details" },
  { label: "Date" },
  { label: "Order" },
  { label: "Charges", align: "right" },
  { label: "Credits", align: "right" },
  { label: "Balance", align: "right" },
];

const OPEN_COLUMNS: Column[] = [
  { label: "Invoice" },
  { label: "Order" },
  { label: "Due" },
  { label: "Overdue by" },
  { label: "Open", align: "right" },
];

/** The filter: a GET form, so the period is in the address (and in the downloads' links). */
export function PeriodForm({ result }: { result: SubmissionResult<string[]> | undefined }) {
  const navigation = useNavigation();
  const location = useLocation();
  const [form, fields] = useForm({
    id: "statement-period",
    lastResult: navigation.state === "idle" ? result : null,
    constraint: getZodConstraint(statementPeriodSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: statementPeriodSchema }),
  });
  const filtered = Boolean(fields.from.initialValue || fields.to.initialValue);
  return (
    <Form method="get" {...getFormProps(form)} className="mt-4 grid gap-x-4 sm:grid-cols-3 sm:items-start">
      <Field meta={fields.from} label="From (UTC day)" inputProps={{ type: "date" }} />
      <Field meta={fields.to} label="To (UTC day, included)" inputProps={{ type: "date" }} />
      <div className="flex items-center gap-3 sm:pt-6">
        <SubmitButton
          pending={navigation.state === "loading" && navigation.location?.pathname === location.pathname}
          pendingText="Showing…"
        >
          Show
        </SubmitButton>
        {filtered ? (
          <Link to={location.pathname} className="inline-flex min-h-11 items-center text-sm font-medium underline">
            Every entry
          </Link>
        ) : null}
      </div>
    </Form>
  );
}

/** The statement: who owes whom in each currency, the terms, the downloads, and a section a currency. */
export function StatementBody({
  data,
  downloadPath,
  orderHref,
  children,
}: {
  data: StatementScreenData;
  /** Where the PDF and CSV are: `${downloadPath}/pdf`, with the period's query. */
  downloadPath: string;
  orderHref: (orderId: string) => string;
  /** What goes under the headline (the customer's payout request). */
  children?: ReactNode;
}) {
  const { statements } = data;
  const query = new URLSearchParams(
    Object.entries({ from: data.period.from ?? "", to: data.period.to ?? "" }).filter(([, value]) => value),
  ).toString();
  const download = (format: "pdf" | "csv") => `${downloadPath}/${format}${query ? `?${query}` : ""}`;
  const headlineId = (statement: Statement) => `statement-headline-${statement.currency}`;
  return (
    <>
      <section
        aria-labelledby={statements.map(headlineId).join(" ")}
        className="mt-4 rounded-lg border border-slate-200 bg-white p-4"
      >
        {statements.map((statement) => (
          <h2
            key={statement.currency}
            id={headlineId(statement)}
            className="text-xl font-bold text-slate-900"
            data-testid="statement-headline"
            data-currency={statement.currency}
          >
            {statement.headline}
          </h2>
        ))}
        <p className="text-sm text-slate-700">
          {data.period.words}; as at {formatDate(statements[0].asOf)}.
          {statements.length > 1 ? " Each currency is its own account: one is never set off against another." : ""}
        </p>
        {statements.map((statement) =>
          statement.owesCents && statement.owedCents ? (
            <p key={statement.currency} className="mt-1 text-sm text-slate-700" data-testid="statement-both-ways">
              Open on account: you owe us {formatCents(statement.owesCents, { currency: statement.currency })} on
              invoices, and we owe you {formatCents(statement.owedCents, { currency: statement.currency })} in credit.
            </p>
          ) : null,
        )}
        {children}
      </section>
      <dl className="mt-3 grid gap-x-4 gap-y-1 sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium text-slate-700">Payment terms</dt>
        <dd data-testid="statement-terms">{data.terms}</dd>
        <dt className="font-medium text-slate-700">Credit limit</dt>
        <dd data-testid="statement-credit-limit">{formatCents(data.creditLimitCents, { currency: data.currency })}</dd>
      </dl>
      <p className="mt-3 flex flex-wrap gap-x-4 text-sm">
        <a href={download("pdf")} className={linkClass} data-testid="statement-pdf">
          Download the statement (PDF)
        </a>
        <a href={download("csv")} className={linkClass} data-testid="statement-csv">
          Download the statement (CSV)
        </a>
      </p>
      {statements.map((statement) => (
        <CurrencyStatement
          key={statement.currency}
          statement={statement}
          data={data}
          orderHref={orderHref}
          titled={statements.length > 1}
        />
      ))}
    </>
  );
}

/**
 * What the account holds in one currency: its opening and closing balances, its entries with the
 * running balance, and the ageing of what is owed in it. `titled`: one of several, under its name.
 */
function CurrencyStatement({
  statement,
  data,
  orderHref,
  titled,
}: {
  statement: Statement;
  data: StatementScreenData;
  orderHref: (orderId: string) => string;
  titled: boolean;
}) {
  const { currency } = statement;
  const money = (cents: number) => formatCents(cents, { currency });
  const Heading = titled ? "h3" : "h2";
  const headingId = `statement-${currency}`;
  const orderLink = (orderId: string) =>
    data.orders[orderId] ? (
      <Link to={orderHref(orderId)} className={linkClass}>
        {data.orders[orderId].number}
      </Link>
    ) : null;
  return (
    <section
      aria-labelledby={titled ? headingId : undefined}
      aria-label={titled ? undefined : `Statement in ${CURRENCIES[currency].plural}`}
      className={titled ? "mt-8 border-t border-slate-200 pt-4" : "mt-3"}
      data-testid="statement-section"
      data-currency={currency}
    >
      {titled ? (
        <h2 id={headingId} className="text-xl font-semibold text-slate-900">
          In {formatCurrencyName(currency)}
        </h2>
      ) : null}
      <dl className="mt-3 grid gap-x-4 gap-y-1 sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium text-slate-700">Opening balance</dt>
        <dd data-testid="statement-opening">{balanceHeadline(statement.openingCents, currency)}</dd>
        <dt className="font-medium text-slate-700">Closing balance</dt>
        <dd className="font-semibold" data-testid="statement-balance">
          {balanceCell(statement.closingCents, currency)}
        </dd>
        <dt className="font-medium text-slate-700">Overdue</dt>
        <dd className={statement.overdueCents ? "font-semibold text-red-800" : ""} data-testid="statement-overdue">
          {money(statement.overdueCents)}
        </dd>
      </dl>
      {statement.lines.length === 0 ? (
        <p className="mt-6 text-slate-700" data-testid="statement-no-entries">
          {data.hasEntries ? "No entries in this period." : "Nothing has been invoiced to your account yet."}
        </p>
      ) : (
        <DataTable
          caption={`Entries${titled ? ` in ${CURRENCIES[currency].plural}` : ""}, oldest first, with the balance after each`}
          className="mt-6"
          columns={LINE_COLUMNS}
          footer={
            <tr>
              <th scope="row" colSpan={5} className="px-3 py-2 text-left">
                Closing balance
              </th>
              <td className="px-3 py-2 text-right font-semibold">{balanceCell(statement.closingCents, currency)}</td>
            </tr>
          }
        >
          {statement.lines.map((line) => (
            <tr key={line.key} data-testid="statement-line">
              <th scope="row" className="px-3 py-2 font-medium">
                {line.description}{" "}
                {line.kind === "invoice" ? (
                  <Link to={documentPath(line.orderId, "invoice")} className={linkClass}>
                    {line.document}
                  </Link>
                ) : line.kind === "credit-note" ? (
                  <Link to={creditNotePath(line.orderId, line.document)} className={linkClass}>
                    {line.document}
                  </Link>
                ) : line.kind === "credit-applied" && !line.creditCents && !line.chargeCents ? null : (
                  <span className="font-normal [overflow-wrap:anywhere]">{line.document}</span>
                )}
                {line.status ? <span className="block text-xs font-normal text-slate-700">{line.status}</span> : null}
              </th>
              <td className="px-3 py-2" data-label="Date">
                {formatDate(line.at)}
              </td>
              <td className="px-3 py-2" data-label="Order">
                {orderLink(line.orderId)}
              </td>
              <td className="px-3 py-2 text-right" data-label="Charges">
                {line.chargeCents ? money(line.chargeCents) : ""}
              </td>
              <td className="px-3 py-2 text-right" data-label="Credits">
                {line.creditCents ? money(line.creditCents) : ""}
              </td>
              <td className="px-3 py-2 text-right font-medium" data-label="Balance">
                {balanceCell(line.balanceCents, currency)}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <Heading className="mt-8 text-lg font-semibold text-slate-900">
        What you owe us{titled ? ` in ${CURRENCIES[currency].plural}` : ""}, by how long it is overdue
      </Heading>
      <dl className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-5" data-testid="statement-ageing">
        {AGEING_BUCKETS.map((bucket) => (
          <div key={bucket} className="rounded border border-slate-200 bg-white p-2">
            <dt className="text-xs font-medium text-slate-700">{AGEING_WORDS[bucket]}</dt>
            <dd className="font-semibold" data-testid={`ageing-${bucket}`}>
              {money(statement.ageing[bucket])}
            </dd>
          </div>
        ))}
      </dl>
      {statement.openInvoices.length === 0 ? (
        <p className="mt-3 text-slate-700" data-testid="statement-empty">
          No invoice is open.
        </p>
      ) : (
        <DataTable caption="Open invoices, oldest due first" className="mt-3" columns={OPEN_COLUMNS}>
          {statement.openInvoices.map((invoice) => (
            <tr key={invoice.key} data-testid="statement-row">
              <th scope="row" className="px-3 py-2 font-medium">
                {invoice.document}
              </th>
              <td className="px-3 py-2" data-label="Order">
                {orderLink(invoice.orderId)}
              </td>
              <td className="px-3 py-2" data-label="Due">
                {formatDate(invoice.dueAt)}
              </td>
              <td className="px-3 py-2" data-label="Overdue by">
                <span className={invoice.daysOverdue ? "font-semibold text-red-800" : ""}>
                  {invoice.daysOverdue
                    ? `${invoice.daysOverdue} ${invoice.daysOverdue === 1 ? "day" : "days"}`
                    : "Not overdue"}
                </span>
              </td>
              <td className="px-3 py-2 text-right font-medium" data-label="Open">
                {money(invoice.openCents)}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}
