/**
 * The ledger's posting and its check. Each money event of an order (its invoice, a payment and its
 * reversal, the card payment, a credit note, its refund, a payout) is posted as an entry once, keyed
 * by the event (domain/ledger.ts): by the workflow that made the change, right after it stands, and
 * by the ledger sweep, which reads the orders changed since it last looked. The first sweep reads
 * every order from the start: that is the ledger's backfill of the orders made before it. Posting
 * again writes nothing; an order whose event now says another amount gets a correction entry (an
 * entry is never changed). docs/decisions/0009-ledger.md.
 */
import { owedByBank } from "~/domain/credit-notes";
import { entriesOfOrder, type LedgerEntryInput } from "~/domain/ledger";
import {
  accountBalances,
  entriesOfOrderPosted,
  insertEntry,
  readCursor,
  saveCursor,
  type PostedEntry,
} from "~/orders/model/ledger.server";
import { getOrderById, listInvoicedOrdersSince, listInvoicedOrders } from "~/orders/model/reads.server";
import { creditUseProblems } from "~/orders/model/credit-use.server";
import type { Step } from "~/services/workflow.server";
import type { OrderView } from "~/orders/model/view.server";
import { logFailure } from "~/services/log.server";

/** Posts what the order implies and the ledger lacks; returns how many entries it wrote. */
export async function postOrderToLedger(order: OrderView) {
  const implied = entriesOfOrder(order);
  const posted = await entriesOfOrderPosted(order.id);
  let written = 0;
  for (const entry of correctionsFor(implied, posted))
    if (await insertEntry(entry, entry.kind === "correction" ? entry.settles! : entry.key)) written++;
  return written;
}

/**
 * The entries to write so that, per event, what is posted adds up to what the order implies: the
 * event's entry when none is posted, else a correction of the difference (keyed by how many entries
 * the event has, so two posts at once write it once).
 */
export function correctionsFor(implied: LedgerEntryInput[], posted: PostedEntry[], now = new Date()) {
  const bySource = new Map<string, PostedEntry[]>();
  for (const entry of posted) bySource.set(entry.source, [...(bySource.get(entry.source) ?? []), entry]);
  const out: LedgerEntryInput[] = [];
  const correction = (of: LedgerEntryInput, entries: PostedEntry[], amountCents: number): LedgerEntryInput => ({
    ...of,
    key: `correction:${of.key}:${entries.length}`,
    kind: "correction",
    amountCents,
    at: now.toISOString(),
    by: null,
    settles: of.key,
  });
  for (const entry of implied) {
    const entries = bySource.get(entry.key);
    if (!entries) {
      out.push(entry);
      continue;
    }
    const sum = entries.reduce((total, each) => total + each.amountCents, 0);
    if (sum !== entry.amountCents) out.push(correction(entry, entries, entry.amountCents - sum));
  }
  // An event posted that the order no longer implies (undone): corrected to nothing.
  const impliedKeys = new Set(implied.map((entry) => entry.key));
  for (const [source, entries] of bySource) {
    if (impliedKeys.has(source)) continue;
    const sum = entries.reduce((total, each) => total + each.amountCents, 0);
    const original = entries.find((each) => each.key === source) ?? entries[0];
    if (sum !== 0) out.push(correction({ ...original, key: source }, entries, -sum));
  }
  return out;
}

/** The workflows' step that posts the changed order's money events (the ledger sweep posts what it leaves). */
export function postStep<C>(orderOf: (context: C) => OrderView | string | null | undefined): Step<C, never> {
  return {
    name: "post-to-ledger",
    finishedBy: "the ledger sweep",
    run: async (context) => {
      const known = orderOf(context);
      // The order as the workflow left it, or read now when the workflow holds only its id.
      const order = typeof known === "string" ? await getOrderById(known) : known;
      if (order) await postOrderToLedger(order);
    },
  };
}

/** Posts a changed order's money events and never throws: what it leaves, the ledger sweep posts. */
export async function postToLedger(order: OrderView) {
  try {
    return await postOrderToLedger(order);
  } catch (error) {
    logFailure(`Ledger entries of order ${order.number} not posted (the ledger sweep will)`, error);
    return 0;
  }
}

/** Orders changed within this much before the cursor are read again (a write that landed late). */
const OVERLAP_MS = 5 * 60_000;

/** The ledger sweep (in the stock sweep): posts the invoiced orders changed since it last read. */
export async function postLedgerLeft({ limit = 500 } = {}) {
  const cursor = await readCursor();
  const since = cursor ? new Date(cursor.updatedAt.getTime() - OVERLAP_MS) : new Date(0);
  const orders = await listInvoicedOrdersSince(since, limit);
  let written = 0;
  for (const { order, updatedAt } of orders) {
    written += await postOrderToLedger(order);
    // Moved on only past what is posted; a full page is read on from its last order next time.
    if (!cursor || updatedAt > cursor.updatedAt) await saveCursor(updatedAt, order.id);
  }
  return written;
}

export type LedgerProblem = { orderId: string; orderNumber: string; message: string };

/**
 * The ledger check: each invoiced order's posted entries add up, event by event, to what its
 * invoice, payments, card payment, credit notes, refunds and payouts say, and no order is credited
 * beyond what it was invoiced. `graceMs`: an order changed more recently than this is still being
 * posted (the sweep's next pass), and not counted as a difference.
 */
export async function checkLedger({ graceMs = 0, now = new Date() } = {}) {
  const problems: LedgerProblem[] = [];
  let orders = 0;
  for await (const { order, updatedAt } of listInvoicedOrders()) {
    orders++;
    if (now.getTime() - updatedAt.getTime() < graceMs) continue;
    const implied = entriesOfOrder(order);
    const posted = await entriesOfOrderPosted(order.id);
    const missing = correctionsFor(implied, posted, now);
    for (const entry of missing) {
      const sum = posted
        .filter((each) => each.source === (entry.settles ?? entry.key))
        .reduce((t, e) => t + e.amountCents, 0);
      problems.push({
        orderId: order.id,
        orderNumber: order.number,
        message:
          entry.kind === "correction"
            ? `${entry.settles}: posted ${sum} cents, the order says ${sum + entry.amountCents}`
            : `${entry.key}: not posted (${entry.amountCents} cents)`,
      });
    }
    for (const entry of posted)
      if (entry.kind !== "correction" && entry.accountId !== order.companyId)
        problems.push({
          orderId: order.id,
          orderNumber: order.number,
          message: `${entry.key}: posted to another account`,
        });
    for (const note of order.creditNotes) {
      // A note's credit goes out once: to other invoices and by bank, never beyond what it holds.
      const used = note.uses.reduce((sum, use) => sum + use.amountCents, 0);
      const out = used + (note.payout?.amountCents ?? 0);
      if (used !== note.usedCents || out > owedByBank(note))
        problems.push({
          orderId: order.id,
          orderNumber: order.number,
          message: `${note.number}: ${used} cents used and ${note.payout?.amountCents ?? 0} paid out of ${owedByBank(note)} (noted used: ${note.usedCents})`,
        });
    }
    const credited = order.creditNotes.reduce((sum, note) => sum + note.totalCents, 0);
    if (credited > order.totalCents)
      problems.push({
        orderId: order.id,
        orderNumber: order.number,
        message: `credited ${credited} cents, more than the ${order.totalCents} invoiced`,
      });
  }
  // Credit taken off orders: held by the order and given by its note alike.
  problems.push(...(await creditUseProblems()));
  const balances = await accountBalances();
  return { orders, accounts: new Set(balances.map((each) => each.accountId)).size, problems };
}
