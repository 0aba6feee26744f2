import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { formatInvoiceNumber } from "~/orders/model/invoice.server";
import { openAccountOrders } from "~/orders/model/payments.server";
import { accountCredits } from "~/orders/model/account-credit.server";
import { accountEntries } from "~/orders/model/ledger.server";
import { readStatement } from "~/orders/model/statement.server";
import { balancesOf } from "~/domain/ledger";
import { AGEING_BUCKETS, periodBounds, statementPeriodSchema } from "~/domain/statement";
import { apiCall, fieldErrors, methodNotAllowed, money, ok, problem } from "~/services/api.server";
import { can } from "~/services/companies.server";

/**
 * GET /api/v1/statement: the statement of account, as /dashboard/statement: open invoices on
 * account, the ledger with its running balance, what each side owes and its ageing; ?from=&to=
 * (UTC days, both optional) for a period.
 */
export async function loader(args: LoaderFunctionArgs) {
  return apiCall(args, "read", async ({ user }) => {
    // As on /dashboard/statement: a company's owners and accounts people read it, not its buyers.
    if (!can(user, "finance")) return problem(403, "The statement is for the company's owners and accounts people.");
    const search = new URL(args.request.url).searchParams;
    const parsed = statementPeriodSchema.safeParse({
      from: search.get("from") || undefined,
      to: search.get("to") || undefined,
    });
    if (!parsed.success)
      return problem(400, "from and to are days such as 2026-01-31, to not before from: see errors.", {
        errors: fieldErrors(parsed.error),
      });
    const period = parsed.data;
    const [open, credits, entries, { statement }] = await Promise.all([
      openAccountOrders(user),
      accountCredits(user),
      accountEntries(user.companyId),
      readStatement(user.companyId, period),
    ]);
    const { start, end } = periodBounds(period);
    const running = new Map<string, number>();
    for (const entry of entries)
      if (start && Date.parse(entry.at) < start.getTime())
        running.set(entry.currency, (running.get(entry.currency) ?? 0) + entry.amountCents);
    const inPeriod = entries.filter(
      (entry) => (!start || Date.parse(entry.at) >= start.getTime()) && (!end || Date.parse(entry.at) < end.getTime()),
    );
    const overdue = open.orders.filter((o) => o.state === "overdue").reduce((sum, o) => sum + o.balanceCents, 0);
    return ok({
      termsDays: user.account.termsDays,
      creditLimit: money(user.account.creditLimitCents),
      balance: money(open.balanceCents - credits.accountCreditCents),
      accountCredit: money(credits.accountCreditCents),
      overdue: money(overdue),
      creditNotes: credits.notes.map((note) => ({
        number: note.number,
        orderId: note.orderId,
        orderNumber: note.orderNumber,
        issuedAt: note.issuedAt,
        total: money(note.totalCents),
        accountCredit: money(note.accountCreditCents),
        settled: note.settled,
      })),
      invoices: open.orders.map((order) => ({
        orderId: order.id,
        number: order.number,
        invoiceNumber: order.invoiceNumber ? formatInvoiceNumber(order.invoiceNumber) : null,
        state: order.state,
        invoicedAt: order.invoicedAt ?? order.createdAt,
        dueAt: order.dueAt,
        total: money(order.totalCents),
        paid: money(order.paidCents),
        balance: money(order.balanceCents),
        poNumber: order.poNumber,
      })),
      ledger: {
        balances: [...balancesOf(entries)].map(([currency, balance]) => ({ currency, balance })),
        entries: inPeriod.map((entry) => {
          const balance = (running.get(entry.currency) ?? 0) + entry.amountCents;
          running.set(entry.currency, balance);
          return {
            at: entry.at,
            kind: entry.kind,
            amount: entry.amountCents,
            currency: entry.currency,
            document: entry.document,
            orderId: entry.orderId,
            balance,
          };
        }),
      },
      owes: money(statement.owesCents),
      owed: money(statement.owedCents),
      ageing: Object.fromEntries(AGEING_BUCKETS.map((bucket) => [bucket, money(statement.ageing[bucket])])),
      period: {
        from: statement.from,
        to: statement.to,
        asOf: statement.asOf,
        opening: money(statement.openingCents),
        closing: money(statement.closingCents),
      },
    });
  });
}

export const action = (_args: ActionFunctionArgs) => methodNotAllowed("GET");
