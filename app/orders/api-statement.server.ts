/**
 * How the API shows a statement of account: each amount in its own currency. An invoice, a credit
 * note and a ledger entry carry their order's; the account's figures (balance, what each side owes,
 * ageing, the period's balances) are counted per currency, never across them: the account's currency
 * (the company's) at the top, as before currencies, and every currency the account has money in
 * under `currencies`.
 */
import { CURRENCY_CODES, type Currency } from "~/domain/money";
import { balancesOf } from "~/domain/ledger";
import { AGEING_BUCKETS, buildStatement, periodBounds, type StatementPeriod } from "~/domain/statement";
import type { UserView } from "~/models/user.server";
import { money } from "~/services/api.server";
import { accountCredits } from "./model/account-credit.server";
import { formatInvoiceNumber } from "./model/invoice.server";
import { accountEntries } from "./model/ledger.server";
import { openAccountOrders } from "./model/payments.server";
import { statementOrders } from "./model/statement.server";

export async function statementJson(user: UserView, period: StatementPeriod, now = new Date()) {
  const [open, credits, entries] = await Promise.all([
    openAccountOrders(user),
    accountCredits(user),
    user.companyId ? accountEntries(user.companyId) : Promise.resolve([]),
  ]);
  const orders = await statementOrders(entries.map((entry) => entry.orderId));
  const dueAt = new Map([...orders].map(([id, order]) => [id, order.dueAt]));
  const home = user.pricing.currency;
  const held = (currency: Currency) =>
    credits.accountCreditByCurrency.find((each) => each.currency === currency)?.amount ?? 0;
  const hasMoneyIn = (currency: Currency) =>
    entries.some((entry) => entry.currency === currency) ||
    open.orders.some((order) => order.currency === currency) ||
    held(currency) !== 0;
  const currencies = [home, ...CURRENCY_CODES.filter((code) => code !== home && hasMoneyIn(code))];

  const figures = currencies.map((currency) => {
    const statement = buildStatement({ entries, currency, period, dueAt, now });
    const inIt = open.orders.filter((order) => order.currency === currency);
    const openCents = inIt.reduce((sum, order) => sum + order.balanceCents, 0);
    const overdueCents = inIt
      .filter((order) => order.state === "overdue")
      .reduce((sum, order) => sum + order.balanceCents, 0);
    const amount = (cents: number) => money(cents, currency);
    return {
      statement,
      json: {
        currency,
        balance: amount(openCents - held(currency)),
        accountCredit: amount(held(currency)),
        overdue: amount(overdueCents),
        owes: amount(statement.owesCents),
        owed: amount(statement.owedCents),
        ageing: Object.fromEntries(AGEING_BUCKETS.map((bucket) => [bucket, amount(statement.ageing[bucket])])),
        opening: amount(statement.openingCents),
        closing: amount(statement.closingCents),
      },
    };
  });
  const [{ statement, json: account }] = figures;

  const { start, end } = periodBounds(period);
  const running = new Map<string, number>();
  for (const entry of entries)
    if (start && Date.parse(entry.at) < start.getTime())
      running.set(entry.currency, (running.get(entry.currency) ?? 0) + entry.amountCents);
  const inPeriod = entries.filter(
    (entry) => (!start || Date.parse(entry.at) >= start.getTime()) && (!end || Date.parse(entry.at) < end.getTime()),
  );

  return {
    termsDays: user.account.termsDays,
    currency: home,
    creditLimit: money(user.account.creditLimitCents, home),
    balance: account.balance,
    accountCredit: account.accountCredit,
    overdue: account.overdue,
    currencies: figures.map((each) => each.json),
    creditNotes: credits.notes.map((note) => ({
      number: note.number,
      orderId: note.orderId,
      orderNumber: note.orderNumber,
      issuedAt: note.issuedAt,
      total: money(note.totalCents, note.currency),
      accountCredit: money(note.accountCreditCents, note.currency),
      settled: note.settled,
    })),
    invoices: open.orders.map((order) => ({
      orderId: order.id,
      number: order.number,
      invoiceNumber: order.invoiceNumber ? formatInvoiceNumber(order.invoiceNumber) : null,
      state: order.state,
      invoicedAt: order.invoicedAt ?? order.createdAt,
      dueAt: order.dueAt,
      total: money(order.totalCents, order.currency),
      paid: money(order.paidCents, order.currency),
      balance: money(order.balanceCents, order.currency),
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
    owes: account.owes,
    owed: account.owed,
    ageing: account.ageing,
    period: {
      from: statement.from,
      to: statement.to,
      asOf: statement.asOf,
      opening: account.opening,
      closing: account.closing,
    },
  };
}
