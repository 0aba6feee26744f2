/**
 * Invoice numbers survive a shop killed around payments. 20 times (50 with INVOICE_KILLS=50) a signed payment event for an unpaid
 * card order (or Stripe's retry of an event a kill left unanswered) is posted to /webhooks/stripe and the
 * shop is SIGKILLed a random moment after the request starts; its replacement starts while other shops
 * of the same build and database take the next payments. Events never answered are delivered again at
 * the end, as Stripe does, and the stock sweep numbers what the kills left. Then, from the database:
 * every paid order has exactly one invoice number, the numbers run 1..N with no gap and no duplicate,
 * each claimed by the order that carries it, invoice dates never go back as the numbers go up (a number
 * given late is dated no earlier than the one before it: app/orders/model/invoice.server.ts,
 * lateIssueDate), and the stock check reports no problem. The states a kill leaves in the narrowest
 * windows are also made directly and numbered in process.
 *
 * The shops are this file's own, on the file's own database; only processes it started are killed, by
 * their pid; all traffic goes to 127.0.0.1. A shop's start (about 2.4 s of CPU, most of it loading the
 * build's modules) is most of the run's time.
 */
import { randomUUID } from "node:crypto";
import { Types } from "mongoose";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { assignInvoiceNumber, invoiceNumbers, numberInvoicesLeft } from "~/orders/model/invoice.server";
import { markOrderPaid, StripeEvent } from "~/orders/model/card-payment.server";
import { Order } from "~/orders/model/schema.server";
import { checkStock } from "~/orders/model/stock-check.server";
import { checkLedger, postLedgerLeft } from "~/orders/ledger.server";
import { createPart, createUser } from "../../setup/factories";
import { createOrder } from "../../setup/order-factories";
import { killShop, seededRandom, sleep, spawnShop, startCountingSmtp, type ShopProcess } from "./fault-helpers";

// 20 in the suite (each kill costs a shop's start, about 2.4 s of CPU); INVOICE_KILLS=50 for the full fault run.
const KILLS = Number(process.env.INVOICE_KILLS ?? 20);
/** Reproducible kill moments: the seed is printed with the result. */
const SEED = Number(process.env.INVOICE_KILL_SEED ?? Math.floor(Math.random() * 2 ** 31));
const SECRET = process.env.STRIPE_WEBHOOK_SECRET!;
/** Shops running at once: a kill's replacement starts while the others take payments. */
const SHOPS = Number(process.env.INVOICE_KILL_SHOPS ?? 3);
/** The kill comes within this many times a shop's warm-up request after the payment's request starts. */
const WINDOW = Number(process.env.INVOICE_KILL_WINDOW ?? 1.5);
/** Every how many kills the request is Stripe's retry of an event left unanswered (when there is one). */
const RETRY_EVERY = 3;

// For these shops only: what a kill left is the sweep's after 2 s (so a retry may come first), swept every second.
const SHOP_ENV = { STOCK_SWEEP_SECONDS: "1", STOCK_RESERVE_DEADLINE_SECONDS: "2", JOBS_POLL_MS: "250" };

let smtp: Awaited<ReturnType<typeof startCountingSmtp>>;
type Shop = ShopProcess & { spawnedAt: number; readyAt: number; warmMs: number };
const shops: Shop[] = [];

beforeAll(async () => {
  smtp = await startCountingSmtp();
});

afterAll(async () => {
  for (const shop of shops) await killShop(shop);
  await smtp?.stop();
});

const stripeId = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, "").slice(0, 24)}`;

type PaymentEvent = { id: string; orderId: string; payload: Record<string, unknown> };

function paymentSucceeded(order: { id: string; totalCents: number }): PaymentEvent {
  const id = stripeId("evt");
  return {
    id,
    orderId: order.id,
    payload: {
      id,
      object: "event",
      api_version: "2026-10-28.endive",
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type: "payment_intent.succeeded",
      data: {
        object: {
          id: stripeId("pi"),
          object: "payment_intent",
          amount: order.totalCents,
          amount_received: order.totalCents,
          currency: "usd",
          status: "succeeded",
          metadata: { orderId: order.id },
        },
      },
    },
  };
}

/** One delivery of the event, signed anew as Stripe signs each: its result, or "killed" when no answer came. */
async function deliver(shop: ShopProcess, event: PaymentEvent): Promise<string> {
  const payload = JSON.stringify(event.payload);
  try {
    const response = await fetch(`${shop.url}/webhooks/stripe`, {
      method: "POST",
      body: payload,
      headers: {
        "Content-Type": "application/json",
        "Stripe-Signature": Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET }),
      },
    });
    const body = (await response.json()) as { result?: string };
    return response.ok ? (body.result ?? "?") : `status ${response.status}`;
  } catch {
    return "killed";
  }
}

/** A shop of this file's own, answering /healthz (looked for every 50 ms: starts are most of the run). */
async function startShop(): Promise<Shop> {
  const shop = Object.assign(await spawnShop(process.env.MONGODB_URI!, { ...SHOP_ENV, SMTP_URL: smtp.url }), {
    spawnedAt: Date.now(),
    readyAt: 0,
    warmMs: 0,
  });
  shops.push(shop);
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (shop.child.exitCode !== null) throw new Error(`the shop exited (${shop.child.exitCode}):\n${shop.output()}`);
    try {
      if ((await fetch(`${shop.url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the shop did not become healthy:\n${shop.output()}`);
    await sleep(50);
  }
  shop.readyAt = Date.now();
  // Warmed on the payment's own path (the event claimed, the order looked for) with an order that does
  // not exist; how long that took sets when this shop's kill may come.
  const warm = paymentSucceeded({ id: new Types.ObjectId().toString(), totalCents: 100 });
  expect(await deliver(shop, warm)).toBe("not_found");
  shop.warmMs = Date.now() - shop.readyAt;
  return shop;
}

/** Where a kill left an order's payment: the write the shop had reached. */
async function stateOf(event: PaymentEvent) {
  const order = await Order.findById(event.orderId, { status: 1, invoiceNumber: 1 }).lean();
  if (order?.invoiceNumber) return "numbered";
  if (order?.status === "paid") {
    const claim = await invoiceNumbers.Registry.exists({ owner: event.orderId });
    return claim ? "number claimed, not written" : "paid, no number";
  }
  return (await StripeEvent.exists({ _id: event.id })) ? "event claimed, order unpaid" : "nothing written";
}

const tally = (values: string[]) =>
  Object.entries(values.reduce<Record<string, number>>((all, v) => ({ ...all, [v]: (all[v] ?? 0) + 1 }), {}))
    .map(([value, n]) => `${n} ${value}`)
    .join(", ");

/** What the kills left, for the second test: the orders whose payment was sent and the events sent. */
let sent: { orderIds: string[]; events: PaymentEvent[] } | undefined;

describe("invoice numbers with the shop killed around payments", () => {
  test(`${KILLS} SIGKILLs around payment webhooks leave every paid order one number, 1..N in date order, no gap`, async () => {
    const started = Date.now();
    const next = seededRandom(SEED);
    const customer = await createUser();
    const part = await createPart({ availableQuantity: 1_000_000, minOrderQuantity: 1 });
    // One order paid before the kills begin, then one for each kill that is not a retry.
    const orders = [];
    for (let i = 0; i <= KILLS; i++) orders.push(await createOrder({ user: customer, part, quantity: 1 + (i % 7) }));
    expect((await checkStock({ settleMs: 0 })).problems).toEqual([]);

    // Shops side by side on the one database, as instances behind a balancer: each kill takes one, and
    // its replacement starts while the others take the next payments.
    const ready: Shop[] = [];
    const starting = new Set<Promise<void>>();
    const launch = () => {
      const pending = startShop().then((shop) => void ready.push(shop));
      starting.add(pending);
      // A shop that cannot start fails the test at the next nextShop (its race), or at the end.
      pending.then(
        () => starting.delete(pending),
        () => {},
      );
    };
    const nextShop = async () => {
      while (!ready.length) await Promise.race(starting);
      return ready.shift()!;
    };
    for (let i = 0; i < SHOPS; i++) launch();

    let shop = await nextShop();
    const events = [paymentSucceeded(orders[0])];
    expect(await deliver(shop, events[0])).toBe("paid");
    ready.push(shop);

    let placed = 1;
    const unanswered: PaymentEvent[] = [];
    const landed: string[] = [];
    const delays: number[] = [];
    for (let i = 1; i <= KILLS; i++) {
      shop = await nextShop();
      const retry = i % RETRY_EVERY === 0 ? unanswered.shift() : undefined;
      const event = retry ?? paymentSucceeded(orders[placed++]);
      if (!retry) events.push(event);
      const answer = deliver(shop, event);
      // From the request's start to past the time a payment takes on this shop (a few writes more than its warm-up).
      const delay = Math.floor(next() * WINDOW * shop.warmMs);
      delays.push(delay);
      await sleep(delay);
      await killShop(shop);
      launch();
      if ((await answer) === "killed") unanswered.push(event);
      landed.push(`${retry ? "retry" : "payment"}: ${await stateOf(event)}`);
      if (process.env.INVOICE_KILL_DEBUG) console.log(`kill ${i}: ${delay} ms of ${shop.warmMs}, ${landed.at(-1)}`);
    }
    await Promise.all(starting);
    shop = await nextShop();

    // Stripe delivers every event it has no answer for again.
    const retried: string[] = [];
    for (const event of unanswered) retried.push(await deliver(shop, event));

    // The sweep numbers what the kills left.
    const ids = events.map((event) => event.orderId);
    sent = { orderIds: ids, events };
    const deadline = Date.now() + 30_000;
    const left = () =>
      Order.countDocuments({
        _id: { $in: ids },
        $or: [{ invoicePending: true }, { status: "paid", invoiceNumber: null }],
      });
    while ((await left()) > 0 && Date.now() < deadline) await sleep(250);
    for (const running of [shop, ...ready]) await killShop(running);

    const stored = await Order.find(
      { _id: { $in: ids } },
      { status: 1, invoiceNumber: 1, invoicedAt: 1, paidAt: 1, invoicePending: 1 },
    )
      .sort({ invoiceNumber: 1 })
      .lean();
    const paid = stored.filter((order) => order.status === "paid");
    const claims = await invoiceNumbers.claimed();
    // In date order: each invoice is dated on its payment, or (numbered late) on the number before it when that is later.
    const outOfOrder: string[] = [];
    let late = 0;
    paid.forEach((order, i) => {
      const at = order.invoicedAt?.getTime() ?? 0;
      const previous = i ? (paid[i - 1].invoicedAt?.getTime() ?? 0) : 0;
      if (at !== Math.max(order.paidAt?.getTime() ?? 0, previous))
        outOfOrder.push(
          `${order.invoiceNumber}: paid ${order.paidAt?.toISOString()}, dated ${order.invoicedAt?.toISOString()}, ` +
            `the one before dated ${new Date(previous).toISOString()}`,
        );
      if (at > (order.paidAt?.getTime() ?? 0)) late++;
    });
    const problems = (await checkStock({ settleMs: 0 })).problems;
    const startMs = shops.filter((one) => one.readyAt).map((one) => one.readyAt - one.spawnedAt);
    console.log(
      `seed ${SEED}: ${KILLS} kills ${Math.min(...delays)}-${Math.max(...delays)} ms after the request started; ` +
        `at the kill: ${tally(landed)}; ${unanswered.length} events delivered again at the end (${tally(retried)}); ` +
        `${paid.length} of ${stored.length} orders paid, ${claims.length} numbers claimed, the highest ` +
        `${claims.at(-1)?._id}; ${late} dated after their payment (numbered late behind a later one); ` +
        `${startMs.length} shops started, ${SHOPS} at a time, in ${Math.round(
          startMs.reduce((sum, ms) => sum + ms, 0) / startMs.length,
        )} ms on average; ${Math.round((Date.now() - started) / 1000)} s in all`,
    );

    // An event applied whole before the kill took its answer is already processed.
    expect
      .soft(retried.filter((result) => !["paid", "already_paid", "already_processed"].includes(result)))
      .toEqual([]);
    // Exactly one number each, 1..N: no gap, no duplicate; every claim carried by the order that made it.
    expect.soft(paid.map((order) => order.invoiceNumber)).toEqual(paid.map((_, i) => i + 1));
    expect.soft(stored.filter((order) => order.status !== "paid" && order.invoiceNumber)).toEqual([]);
    expect.soft(stored.filter((order) => order.invoicePending)).toEqual([]);
    expect
      .soft(claims.map((claim) => [claim._id, claim.owner]))
      .toEqual(paid.map((order) => [order.invoiceNumber, order._id.toString()]));
    expect.soft(outOfOrder).toEqual([]);
    expect.soft(problems).toEqual([]);
    // The ledger, posted by the sweep from each order's invoice and card payment, adds up.
    await postLedgerLeft();
    expect.soft((await checkLedger()).problems).toEqual([]);
  }, 400_000);

  test("every payment a kill interrupted is applied once Stripe delivers its event again", async () => {
    expect(sent, "the kills ran").toBeDefined();
    // A kill between the event's record (StripeEvent) and the order's update once left the record, and
    // Stripe's retries were answered "already processed" with the order unpaid: every one is paid now.
    const unpaid = (await Order.find({ _id: { $in: sent!.orderIds }, status: { $ne: "paid" } }, { _id: 1 }).lean()).map(
      (order) => order._id.toString(),
    );
    const events = sent!.events.filter((event) => unpaid.includes(event.orderId)).map((event) => event.id);
    const unapplied = await StripeEvent.countDocuments({
      _id: { $in: sent!.events.map((event) => event.id) },
      appliedAt: null,
    });
    expect({ unpaid: unpaid.length, events, unapplied }).toEqual({ unpaid: 0, events: [], unapplied: 0 });
  });
});

/** An unpaid order of its own part, marked paid as markOrderPaid's update leaves it (a kill right after). */
async function paidUnnumbered(paidAt: Date) {
  const customer = await createUser();
  const order = await createOrder({ user: customer, part: await createPart(), quantity: 100 });
  const transactionId = stripeId("pi");
  await Order.updateOne(
    { _id: order.id },
    {
      $set: { status: "paid", transactionId, paidAt, paidCents: order.totalCents, invoicePending: true },
      $addToSet: { eventsPending: "paid" },
    },
  );
  return { ...order, transactionId };
}

async function invoiceOf(orderId: string) {
  const order = await Order.findById(orderId, { invoiceNumber: 1, invoicedAt: 1 }).lean();
  return { number: order!.invoiceNumber!, at: order!.invoicedAt!.getTime() };
}

describe("the states a kill leaves in its narrowest windows, numbered in process", () => {
  test("an order paid before a kill and numbered by Stripe's retry is dated no earlier than the numbers given since", async () => {
    const before = await paidUnnumbered(new Date(Date.now() - 60_000));
    // Another payment numbered on time meanwhile.
    const other = await createOrder({ user: await createUser(), part: await createPart(), quantity: 100 });
    const evidence = (order: { id: string; totalCents: number }, transactionId: string) => ({
      orderId: order.id,
      transactionId,
      amountCents: order.totalCents,
      currency: "usd",
    });
    expect((await markOrderPaid(evidence(other, stripeId("pi")))).outcome).toBe("paid");
    // The retry finds the order paid by its own transaction, without a number.
    expect((await markOrderPaid(evidence(before, before.transactionId))).outcome).toBe("already_paid");

    const [first, second] = [await invoiceOf(other.id), await invoiceOf(before.id)];
    expect(second.number).toBe(first.number + 1);
    expect(second.at).toBe(first.at);
  });

  test("the sweep numbers an order whose number was claimed before the kill first, then older ones after it", async () => {
    const older = await paidUnnumbered(new Date(Date.now() - 60_000));
    const claimedFirst = await paidUnnumbered(new Date(Date.now() - 30_000));
    const claim = await invoiceNumbers.take(claimedFirst.id);

    await numberInvoicesLeft({ graceMs: 0 });
    const [first, second] = [await invoiceOf(claimedFirst.id), await invoiceOf(older.id)];
    expect(first.number).toBe(claim);
    expect(second.number).toBe(claim + 1);
    expect(second.at).toBe(first.at);
  });

  test("a late number after a claim whose order does not carry it yet is dated no earlier than that order's invoice", async () => {
    const older = await paidUnnumbered(new Date(Date.now() - 60_000));
    const claimedFirst = await paidUnnumbered(new Date(Date.now() - 30_000));
    const claim = await invoiceNumbers.take(claimedFirst.id);

    // Numbered while the claim's own write is still on the way (another process), then that write.
    await assignInvoiceNumber(older.id, { late: true });
    await assignInvoiceNumber(claimedFirst.id);
    const [first, second] = [await invoiceOf(claimedFirst.id), await invoiceOf(older.id)];
    expect([first.number, second.number]).toEqual([claim, claim + 1]);
    expect(second.at).toBeGreaterThanOrEqual(first.at);
  });
});
