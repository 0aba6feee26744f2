import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { formatInvoiceNumber } from "~/orders/model/invoice.server";
import { openAccountOrders } from "~/orders/model/payments.server";
import { accountCredits } from "~/orders/model/account-credit.server";
import { accountEntries } from "~/orders/model/ledger.server";
import { balancesOf } from "~/domain/ledger";
import { apiCall, methodNotAllowed, money, ok, problem } from "~/services/api.server";
import { can } from "~/services/companies.server";

/** GET /api/v1/statement: the statement of account (open invoices on account), as /dashboard/statement. */
export async function loader(args: LoaderFunctionArgs) {
  return apiCall(args, "read", async ({ user }) => {
    // As on /dashboard/statement: a company's owners and accounts people read it, not its buyers.
    if (!can(user, "finance")) return problem(403, "The statement is for the company's owners and accounts people.");
    const [open, credits, entries] = await Promise.all([
      openAccountOrders(user),
      accountCredits(user),
      accountEntries(user.companyId),
    ]);
    const running = new Map<string, number>();
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
        entries: entries.map((entry) => {
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
    });
  });
}

export const action = (_args: ActionFunctionArgs) => methodNotAllowed("GET");
