/**
 * The ledger survives a shop killed around money changes. 8 times (40 with LEDGER_KILLS=40) staff
 * post one change to a built shop, in turn: a bank payment recorded, a paid order cancelled with its
 * credit note, account credit applied to an order awaiting payment, and a credit note's credit paid
 * out; the shop is SIGKILLed a random moment after the request starts, and its replacement serves the
 * next. Then the stock sweep of a last shop finishes what the kills left (credit notes to issue,
 * claims on credit to give back, invoices to number, entries to post), and from the database: the
 * ledger check is clean (every money event posted once; no credit note gave out more than it held,
 * to later orders and by bank; every use of credit held by its order and its note alike), and the
 * stock check too.
 *
 * The shops are this file's own, on the file's own database; only processes it started are killed, by
 * their pid; all traffic goes to 127.0.0.1.
 */
import { afterAll, describe, expect, test } from "vitest";
import { cancelPaidOrderWithCredit } from "~/orders/credit-notes.server";
import { checkLedger, postLedgerLeft } from "~/orders/ledger.server";
import { getOrderById } from "~/orders/model/reads.server";
import { Order } from "~/orders/model/schema.server";
import { checkStock } from "~/orders/model/stock-check.server";
import { placeOrder } from "~/orders/checkout.server";
import { DETROIT } from "../../fixtures/addresses";
import { createPart, createUser, sessionCookieHeader } from "../../setup/factories";
import { paidOrder, staff } from "../../setup/paid-orders";
import { killShop, postForm, seededRandom, sleep, spawnShop, waitHealthy, type ShopProcess } from "./fault-helpers";

const KILLS = Number(process.env.LEDGER_KILLS ?? 8);
/** Reproducible kill moments: the seed is printed with the result. */
const SEED = Number(process.env.LEDGER_KILL_SEED ?? Math.floor(Math.random() * 2 ** 31));
// For these shops only: what a kill left is the sweep's after 2 s, swept every second.
const SHOP_ENV = { STOCK_SWEEP_SECONDS: "1", STOCK_RESERVE_DEADLINE_SECONDS: "2", JOBS_POLL_MS: "250" };
const KINDS = ["record-payment", "cancel-paid", "apply-credit", "payout"] as const;
type Kind = (typeof KINDS)[number];

const shops: ShopProcess[] = [];
afterAll(async () => {
  for (const shop of shops) await killShop(shop);
});

/** A shop of this file's own, answering /healthz. */
async function startShop() {
  const shop = await spawnShop(process.env.MONGODB_URI!, SHOP_ENV);
  shops.push(shop);
  await waitHealthy(shop);
  return shop;
}

const delivery = { phone: "+1 555 0100", delivery: { ...DETROIT, line1: "4 Kill Street" } };

/** A card order awaiting payment, placed by the customer before any credit was on the account. */
async function waitingOrder(user: Awaited<ReturnType<typeof createUser>>) {
  const part = await createPart({ availableQuantity: 100_000, minOrderQuantity: 1, priceCents: 1_000 });
  const placed = await placeOrder({ lines: [{ partId: part.id, quantity: 30 }], ...delivery, user });
  if (!placed.ok) throw new Error("not placed");
  return placed.order;
}

/** What one change needs, made in this process; the form staff post for it. */
async function prepare(kind: Kind): Promise<{ orderId: string; fields: Record<string, string> }> {
  if (kind === "record-payment") {
    const user = await createUser();
    const order = await waitingOrder(user);
    await Order.updateOne({ _id: order.id }, { $set: { paymentMethod: "bank-transfer" } });
    return {
      orderId: order.id,
      fields: {
        intent: "record-payment",
        amount: (order.totalCents / 100).toFixed(2),
        method: "bank-transfer",
        receivedOn: new Date().toISOString().slice(0, 10),
        reference: `KILL-${order.number}`,
      },
    };
  }
  if (kind === "cancel-paid") {
    const { order } = await paidOrder(40, "bank-transfer");
    return {
      orderId: order.id,
      fields: { intent: "cancel-paid", confirm: "yes", reason: "Cancelled while the shop was being killed." },
    };
  }
  // A customer in credit (a paid order cancelled), with a card order placed before it.
  const { user, order: paid } = await paidOrder(40, "bank-transfer");
  const waiting = await waitingOrder(user);
  const cancelled = await cancelPaidOrderWithCredit(paid.id, staff);
  if (!cancelled.ok || !cancelled.note) throw new Error("not credited");
  if (kind === "apply-credit") return { orderId: waiting.id, fields: { intent: "apply-credit", amount: "" } };
  return {
    orderId: paid.id,
    fields: { intent: "payout", creditNoteId: cancelled.note.id, reference: `OUT-${paid.number}` },
  };
}

describe("the ledger with the shop killed around money changes", () => {
  test(`${KILLS} SIGKILLs around payments, cancellations, credit applications and payouts leave the ledger clean`, async () => {
    const started = Date.now();
    const next = seededRandom(SEED);
    const admin = await createUser({ role: "admin" });
    const cookie = await sessionCookieHeader(admin.id);
    const orderIds: string[] = [];
    const answers: string[] = [];
    let shop = await startShop();
    // Warmed on a staff page: how long it took sets the window of the kills.
    const warmStart = Date.now();
    await fetch(`${shop.url}/dashboard/admin`, { headers: { Cookie: cookie } });
    const warmMs = Math.max(50, Date.now() - warmStart);
    let replacement = startShop();
    for (let i = 0; i < KILLS; i++) {
      const kind = KINDS[i % KINDS.length];
      const { orderId, fields } = await prepare(kind);
      orderIds.push(orderId);
      const answer = postForm(`${shop.url}/dashboard/manageOrders/${orderId}`, fields, {
        cookie,
        origin: `http://localhost:${shop.port}`,
      }).then(
        (response) => `${response.status}`,
        () => "killed",
      );
      await sleep(Math.floor(next() * 3 * warmMs));
      await killShop(shop);
      answers.push(`${kind}: ${await answer}`);
      shop = await replacement;
      replacement = startShop();
    }
    // The last shop's sweep finishes what the kills left (events still pending are the event sweep's,
    // after its minute of grace: mail and webhooks, not money).
    await replacement.then(killShop);
    const settleBy = Date.now() + 30_000;
    const left = async () =>
      Order.countDocuments({
        $or: [
          { creditPending: true },
          { invoicePending: true },
          { stockPending: { $exists: true } },
          { "creditNotes.uses.pending": true },
        ],
      });
    await sleep(3_000);
    while ((await left()) > 0 && Date.now() < settleBy) await sleep(250);
    await killShop(shop);
    await postLedgerLeft();

    const unsettled = await Order.find(
      {
        $or: [
          { creditPending: true },
          { invoicePending: true },
          { stockPending: { $exists: true } },
          { "creditNotes.uses.pending": true },
        ],
      },
      { number: 1, status: 1, creditPending: 1, invoicePending: 1, stockPending: 1 },
    ).lean();
    const ledger = await checkLedger();
    const stock = await checkStock({ settleMs: 0 });
    const orders = await Promise.all(orderIds.map((id) => getOrderById(id)));
    console.log(
      `seed ${SEED}: ${KILLS} kills within ${3 * warmMs} ms of the request; answers: ${answers.join(", ")}; ` +
        `${orders.filter((order) => order?.creditNotes.length).length} orders credited, ` +
        `${orders.filter((order) => order?.creditAppliedCents).length} took credit, ` +
        `${orders.filter((order) => order?.creditNotes.some((note) => note.payout)).length} paid out; ` +
        `${ledger.orders} invoiced orders checked; ${Math.round((Date.now() - started) / 1000)} s`,
    );
    expect.soft(unsettled).toEqual([]);
    expect.soft(ledger.problems).toEqual([]);
    expect.soft(stock.problems).toEqual([]);
  }, 300_000);
});
