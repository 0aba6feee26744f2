/**
 * The ledger against the local database, through the real services: each money event of an order is
 * posted once (by the workflow that made it, and by the sweep, whose first pass is the backfill of
 * every order made before), an entry is never changed (a difference gets a correction entry), and the
 * ledger check names what is missing or different.
 */
import mongoose from "mongoose";
import { describe, expect, test } from "vitest";
import { balancesOf } from "~/domain/ledger";
import { placeOrder } from "~/orders/checkout.server";
import { cancelPaidOrderWithCredit } from "~/orders/credit-notes.server";
import { checkLedger, postLedgerLeft, postOrderToLedger } from "~/orders/ledger.server";
import { accountEntries, entriesOfOrderPosted, LedgerEntry } from "~/orders/model/ledger.server";
import { getOrderById } from "~/orders/model/reads.server";
import { payOutCredit } from "~/orders/payouts.server";
import { recordPayment } from "~/orders/service.server";
import { DETROIT } from "../fixtures/addresses";
import { createPart, createUser } from "../setup/factories";

const staff = { actor: { id: "000000000000000000000000", email: "staff@example.com" } };
const delivery = { phone: "+1 555 0100", delivery: { ...DETROIT, line1: "1 Ledger Lane" } };

/** An order paid in full by bank transfer (invoiced once paid). */
async function bankPaidOrder() {
  const part = await createPart({ availableQuantity: 1000, minOrderQuantity: 10, priceCents: 1_000 });
  const customer = await createUser();
  const placed = await placeOrder({ lines: [{ partId: part.id, quantity: 50 }], ...delivery, user: customer });
  if (!placed.ok) throw new Error("not placed");
  const paid = await recordPayment(
    placed.order.id,
    { amountCents: placed.order.totalCents, method: "bank-transfer", receivedOn: new Date(), reference: "BANK-7" },
    staff,
  );
  if (!paid.ok) throw new Error(paid.message);
  return { customer, order: (await getOrderById(placed.order.id))! };
}

const kinds = async (orderId: string) =>
  (await entriesOfOrderPosted(orderId)).map((entry) => `${entry.kind} ${entry.amountCents}`).sort();

describe("the ledger", () => {
  test("a paid order cancelled with its credit note and paid out: each event posted once, the balance owed and then settled", async () => {
    const { order } = await bankPaidOrder();
    const total = order.totalCents;
    expect(await kinds(order.id)).toEqual([`invoice ${total}`, `payment ${-total}`]);

    const cancelled = await cancelPaidOrderWithCredit(order.id, staff);
    if (!cancelled.ok || !cancelled.note) throw new Error("not cancelled with its note");
    expect(await kinds(order.id)).toEqual([`credit-note ${-total}`, `invoice ${total}`, `payment ${-total}`]);
    // The shop owes the customer the whole order: the account is in credit.
    const account = await accountEntries(order.companyId);
    expect(balancesOf(account).get("USD")).toBe(-total);

    const paidOut = await payOutCredit(order.id, cancelled.note.id, "OUT-7", staff);
    expect(paidOut.ok).toBe(true);
    expect(balancesOf(await accountEntries(order.companyId)).get("USD")).toBe(0);
    // Posting again writes nothing.
    expect(await postOrderToLedger((await getOrderById(order.id))!)).toBe(0);
    expect(await LedgerEntry.countDocuments({ orderId: order.id })).toBe(4);
  });

  test("the first sweep posts every order made before the ledger; a second writes nothing, and the check is clean", async () => {
    const made = await Promise.all([bankPaidOrder(), bankPaidOrder()]);
    // As before the ledger existed: no entries, and no cursor.
    await LedgerEntry.deleteMany({});
    await mongoose.connection.collection("ledger_cursor").deleteMany({});
    expect((await checkLedger()).problems.length).toBeGreaterThan(0);

    expect(await postLedgerLeft()).toBeGreaterThanOrEqual(4);
    for (const { order } of made) expect(await kinds(order.id)).toHaveLength(2);
    expect(await postLedgerLeft()).toBe(0);
    expect(await checkLedger()).toMatchObject({ problems: [] });
  });

  test("the check names an event not posted and one posted at another amount; the sweep corrects it with a new entry", async () => {
    const { order } = await bankPaidOrder();
    await LedgerEntry.deleteOne({ _id: `invoice:${order.id}` });
    await LedgerEntry.updateOne({ orderId: order.id, kind: "payment" }, { $inc: { amountCents: 100 } });
    const { problems } = await checkLedger();
    expect(problems.filter((problem) => problem.orderId === order.id).map((problem) => problem.message)).toEqual([
      `invoice:${order.id}: not posted (${order.totalCents} cents)`,
      expect.stringMatching(/^payment:\w+: posted -\d+ cents, the order says -\d+$/),
    ]);
    expect(await postOrderToLedger(order)).toBe(2);
    // The wrong entry stays as it was; a correction entry carries the difference.
    const posted = await entriesOfOrderPosted(order.id);
    expect(posted.find((entry) => entry.kind === "correction")).toMatchObject({ amountCents: -100 });
    expect(balancesOf(posted).get("USD")).toBe(0);
    expect((await checkLedger()).problems.filter((problem) => problem.orderId === order.id)).toEqual([]);
  });
});
