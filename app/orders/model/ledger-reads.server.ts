/**
 * The ledger as staff screens read it (docs/decisions/0009-ledger.md): what an account owes the
 * shop and what the shop owes it (`owedBothWays` of its entries), for one account or a page of
 * them; the credit notes that still hold credit, to pay out; and each order's invoiced, received,
 * credited and open amounts for the orders' CSV. No screen works a balance out of the orders.
 */
import { owedBothWays, openItems, type LedgerCurrency, type LedgerEntryInput, type LedgerKind } from "~/domain/ledger";
import { formatOrderNumber } from "~/domain/order-number";
import { getCompanies } from "~/models/company.server";
import { LedgerEntry } from "./ledger.server";
import { Order } from "./schema.server";

type Entry = Pick<
  LedgerEntryInput,
  "key" | "accountId" | "kind" | "document" | "orderId" | "at" | "currency" | "amountCents" | "settles"
> & { source: string };
type EntryRow = Omit<Entry, "key" | "at"> & { _id: string; at: Date };

const ENTRY_FIELDS = {
  source: 1,
  accountId: 1,
  kind: 1,
  document: 1,
  orderId: 1,
  at: 1,
  currency: 1,
  amountCents: 1,
  settles: 1,
} as const;

const toEntry = ({ _id, at, ...row }: EntryRow): Entry => ({ ...row, key: _id, at: at.toISOString() });

/** Every entry of these accounts (the statement's index). An entry may settle one of another order of its account (credit used). */
async function entriesOfAccounts(accountIds: string[]) {
  const rows = await LedgerEntry.find({ accountId: { $in: accountIds } }, ENTRY_FIELDS).lean<EntryRow[]>();
  const byAccount = new Map<string, Entry[]>(accountIds.map((id) => [id, []]));
  for (const row of rows) byAccount.get(row.accountId)?.push(toEntry(row));
  return byAccount;
}

/** One currency of an account: what the customer owes, what the shop owes them, and the difference. */
export type Owed = { currency: LedgerCurrency; owesCents: number; owedCents: number; balanceCents: number };

/** The account's figures, one a currency (US dollars first); none when the ledger has nothing of it. */
function owedOf(entries: Entry[]): Owed[] {
  return [...owedBothWays(entries)]
    .map(([currency, owed]) => ({ currency, ...owed }))
    .sort(
      (a, b) => Number(b.currency === "USD") - Number(a.currency === "USD") || a.currency.localeCompare(b.currency),
    );
}

/** What each of these accounts owes and is owed (a page of All Users or Companies): one query over their entries. */
export async function owedOfAccounts(accountIds: string[]) {
  const ids = [...new Set(accountIds.filter(Boolean))];
  const out = new Map<string, Owed[]>();
  if (!ids.length) return out;
  for (const [id, entries] of await entriesOfAccounts(ids)) out.set(id, owedOf(entries));
  return out;
}

/** A credit note whose credit the shop still holds: it can be paid out to the customer's bank. */
export type CreditHeld = {
  accountId: string;
  orderId: string;
  orderNumber: string;
  noteId: string;
  number: string;
  issuedAt: string;
  currency: LedgerCurrency;
  creditCents: number;
  /** Whom the order is for: its company's name, or the person who placed it. */
  customer: string;
};

const NOTE_KIND: LedgerKind = "credit-note";
const NOTE_KEY = /^credit-note:([a-f0-9]{24})$/i;

/** The credit notes that still hold credit in one account's entries, oldest first. */
function heldIn(accountId: string, entries: Entry[]) {
  return openItems(entries)
    .filter((item) => item.kind === NOTE_KIND && item.openCents < 0 && NOTE_KEY.test(item.key))
    .map((item) => ({ ...item, accountId }));
}

/** Those credit notes as screens show them, with their orders' numbers and customers (one query). */
async function withOrders(held: ReturnType<typeof heldIn>): Promise<CreditHeld[]> {
  if (!held.length) return [];
  const orders = await Order.find(
    { _id: { $in: [...new Set(held.map((item) => item.orderId))] } },
    { number: 1, userName: 1, companyName: 1 },
  ).lean<{ _id: { toString(): string }; number?: number; userName?: string; companyName?: string }[]>();
  const byId = new Map(orders.map((order) => [order._id.toString(), order]));
  return held.map((item) => {
    const order = byId.get(item.orderId);
    return {
      accountId: item.accountId,
      orderId: item.orderId,
      orderNumber: order?.number ? formatOrderNumber(order.number) : "",
      noteId: NOTE_KEY.exec(item.key)![1],
      number: item.document,
      issuedAt: item.at,
      currency: item.currency,
      creditCents: -item.openCents,
      customer: order?.companyName || order?.userName || "",
    };
  });
}

/** One account (a customer's or a company's record): its figures and the credit notes holding credit. */
export async function accountLedger(accountId: string) {
  const entries = (await entriesOfAccounts([accountId])).get(accountId) ?? [];
  return { owed: owedOf(entries), credits: await withOrders(heldIn(accountId, entries)) };
}

/** An account the shop owes, with its credit notes holding credit (Shop Today's "Credit to pay out"). */
export type AccountToPayOut = { accountId: string; name: string; owed: Owed[]; credits: CreditHeld[] };

/**
 * The accounts whose credit notes still hold credit, the one whose credit waits longest first (at
 * most `limit` accounts), and how many there are: read from the accounts that were ever given a
 * credit note (an index on the entries' kind), whole, since credit used goes to another order's invoice.
 */
export async function accountsToPayOut(limit = 20) {
  const candidates = (await LedgerEntry.distinct("accountId", { kind: NOTE_KIND })) as string[];
  if (!candidates.length) return { accounts: [] as AccountToPayOut[], total: 0 };
  const holding = [...(await entriesOfAccounts(candidates))]
    .map(([accountId, entries]) => ({ accountId, entries, held: heldIn(accountId, entries) }))
    .filter((account) => account.held.length > 0)
    .sort((a, b) => a.held[0].at.localeCompare(b.held[0].at) || a.accountId.localeCompare(b.accountId));
  const shown = holding.slice(0, limit);
  const [credits, companies] = await Promise.all([
    withOrders(shown.flatMap((account) => account.held)),
    getCompanies(shown.map((account) => account.accountId)),
  ]);
  const accounts = shown.map(({ accountId, entries }): AccountToPayOut => {
    const own = credits.filter((credit) => credit.accountId === accountId);
    const name = companies.get(accountId)?.company.companyName || own.at(-1)?.customer || "Company of one";
    return { accountId, name, owed: owedOf(entries), credits: own };
  });
  return { accounts, total: holding.length };
}

/** An order's money in the ledger: invoiced, received (less reversals), credited, and what is open (+ owed to the shop). */
export type OrderLedgerFigures = {
  invoicedCents: number;
  receivedCents: number;
  creditedCents: number;
  openCents: number;
};

/** Which figure an event's entries (its own and its corrections: the event key's kind) count towards. */
const FIGURE_OF: Partial<Record<string, Exclude<keyof OrderLedgerFigures, "openCents">>> = {
  invoice: "invoicedCents",
  payment: "receivedCents",
  "card-payment": "receivedCents",
  "payment-reversal": "receivedCents",
  "credit-note": "creditedCents",
};

/**
 * Each order's figures in these entries of whole accounts: what its events add up to, and what its
 * own documents (its invoice, its credit notes) still have open after every entry that settles them.
 */
function figuresOfOrders(entries: Entry[]) {
  const out = new Map<string, OrderLedgerFigures>();
  const of = (orderId: string) => {
    const figures = out.get(orderId) ?? { invoicedCents: 0, receivedCents: 0, creditedCents: 0, openCents: 0 };
    out.set(orderId, figures);
    return figures;
  };
  for (const entry of entries) {
    const figure = FIGURE_OF[entry.source.slice(0, entry.source.indexOf(":"))];
    // Received and credited are money the shop took in or gave: positive, as the documents print them.
    if (figure) of(entry.orderId)[figure] += figure === "invoicedCents" ? entry.amountCents : -entry.amountCents;
  }
  for (const item of openItems(entries)) of(item.orderId).openCents += item.openCents;
  return out;
}

/**
 * Rows of orders (a cursor) with each order's ledger figures (none for an order never invoiced).
 * An order's figures need its whole account (credit used comes from another order's credit note):
 * each account's entries are read once, for a batch of orders at a time.
 */
export async function* withLedgerFigures<Row extends { id: string; companyId: string }>(
  rows: AsyncIterable<Row>,
  batchSize = 200,
): AsyncGenerator<Row & { ledger: OrderLedgerFigures | null }> {
  const figures = new Map<string, OrderLedgerFigures>();
  const read = new Set<string>();
  let batch: Row[] = [];
  const flush = async function* () {
    const accounts = [...new Set(batch.map((row) => row.companyId).filter((id) => id && !read.has(id)))];
    if (accounts.length) {
      for (const [accountId, entries] of await entriesOfAccounts(accounts)) {
        read.add(accountId);
        for (const [orderId, each] of figuresOfOrders(entries)) figures.set(orderId, each);
      }
    }
    for (const row of batch) yield { ...row, ledger: figures.get(row.id) ?? null };
    batch = [];
  };
  for await (const row of rows) {
    batch.push(row);
    if (batch.length >= batchSize) yield* flush();
  }
  if (batch.length) yield* flush();
}
