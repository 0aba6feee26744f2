/**
 * What a statement of account reads: the account's ledger entries (its company's), and of the
 * orders they belong to the number people quote and the due date the ageing counts from.
 */
import { formatOrderNumber } from "~/domain/order-number";
import { HOME_CURRENCY, type Currency } from "~/domain/money";
import { buildStatements, type StatementPeriod } from "~/domain/statement";
import { isObjectId } from "~/models/part.server";
import { accountEntries } from "./ledger.server";
import { Order } from "./schema.server";

export type StatementOrder = { id: string; number: string; dueAt: string | null; poNumber: string | null };

/** The orders `ids` as the statement names them (number, due date, PO), by id. */
export async function statementOrders(ids: string[]) {
  const wanted = [...new Set(ids)].filter(isObjectId);
  const docs = wanted.length
    ? await Order.find({ _id: { $in: wanted } }, { number: 1, dueAt: 1, poNumber: 1 }).lean()
    : [];
  return new Map<string, StatementOrder>(
    docs.map((doc) => {
      const id = doc._id.toString();
      return [
        id,
        {
          id,
          number: doc.number ? formatOrderNumber(doc.number) : id.slice(-8).toUpperCase(),
          dueAt: doc.dueAt ? doc.dueAt.toISOString() : null,
          poNumber: doc.poNumber || null,
        },
      ];
    }),
  );
}

/**
 * The statement of account `accountId` (a company's id) for `period`: one a currency its ledger
 * holds, each on its own (`currency`, the one the company buys in, first).
 */
export async function readStatement(
  accountId: string,
  period: StatementPeriod = {},
  now = new Date(),
  currency: Currency = HOME_CURRENCY,
) {
  const entries = accountId ? await accountEntries(accountId) : [];
  const orders = await statementOrders(entries.map((entry) => entry.orderId));
  const dueAt = new Map([...orders].map(([id, order]) => [id, order.dueAt]));
  return {
    statements: buildStatements({ entries, currency, period, dueAt, now }),
    orders,
    hasEntries: entries.length > 0,
  };
}
