/**
 * Account credit is used without anyone asking, against the local database through the real
 * services: a company's credit (a paid order cancelled, credited to its account) comes off its next
 * order (paid at once when it covers it; a card pays only the rest), off its open invoices on
 * account, oldest first, when a credit note puts credit on the account; an unpaid order that ends
 * gives its credit back; two orders at once never use the same credit twice; a payout pays only
 * what is left; and a claim a crash left untaken goes back to its note. The ledger check stays clean.
 */
import { describe, expect, test } from "vitest";
import { balancesOf } from "~/domain/ledger";
import { applyPaymentEvidence } from "~/orders/card-payments.server";
import { placeOrder } from "~/orders/checkout.server";
import { APPLY_CREDIT_STEPS, applyCreditTo, sweepCreditClaims } from "~/orders/credit-apply.server";
import { cancelPaidOrderWithCredit } from "~/orders/credit-notes.server";
import { checkLedger, postLedgerLeft } from "~/orders/ledger.server";
import { accountCredits } from "~/orders/model/account-credit.server";
import { creditHeldBy } from "~/orders/model/credit-use.server";
import { cancelOrder } from "~/orders/model/holds.server";
import { accountEntries } from "~/orders/model/ledger.server";
import { getOrderById } from "~/orders/model/reads.server";
import { Order } from "~/orders/model/schema.server";
import { payOutCredit } from "~/orders/payouts.server";
import { DETROIT } from "../fixtures/addresses";
import { action as staffOrderAction, loader as staffOrderLoader } from "~/routes/dashboard.manageOrders_.$id._index";
import { Audit } from "~/models/audit.server";
import { createPart, createUser, sessionCookieHeader } from "../setup/factories";
import { actionArgs, getRequest, loaderArgs, postRequest, settle } from "../setup/requests";
import { expectFieldError } from "./ordering.helpers";
import { paidOrder, staff, stripeId } from "../setup/paid-orders";

const delivery = { phone: "+1 555 0100", delivery: { ...DETROIT, line1: "9 Credit Court" } };

/** A customer whose company holds the credit of a paid order of `quantity` units at $12.50, cancelled by the shop. */
async function customerInCredit(quantity = 100) {
  const { user, order } = await paidOrder(quantity, "bank-transfer");
  const cancelled = await cancelPaidOrderWithCredit(order.id, staff);
  if (!cancelled.ok || !cancelled.note) throw new Error("not credited");
  return { user, creditCents: cancelled.note.totalCents, noteNumber: cancelled.note.number, noteOrderId: order.id };
}

async function order(
  user: Awaited<ReturnType<typeof customerInCredit>>["user"],
  quantity: number,
  extra: Partial<Parameters<typeof placeOrder>[0]> = {},
) {
  const part = await createPart({ availableQuantity: 5000, minOrderQuantity: 1, priceCents: 1_000 });
  const placed = await placeOrder({ lines: [{ partId: part.id, quantity }], ...delivery, user, ...extra });
  if (!placed.ok) throw new Error("not placed");
  return placed.order;
}

const heldCents = async (companyId: string) => (await accountCredits({ id: "", companyId })).accountCreditCents;

/** The ledger check finds nothing wrong with this company's orders (other tests' orders are theirs). */
async function ledgerClean(companyId: string) {
  // The shop's own ledger sweep may have posted an order mid-change: its next pass corrects it (record 9).
  await postLedgerLeft();
  const { problems } = await checkLedger();
  const own = new Set((await Order.find({ companyId }, { _id: 1 }).lean()).map((doc) => String(doc._id)));
  expect(problems.filter((problem) => own.has(problem.orderId)).map((p) => `${p.orderNumber} ${p.message}`)).toEqual(
    [],
  );
  return balancesOf(await accountEntries(companyId)).get("USD") ?? 0;
}

describe("account credit comes off the next order without anyone asking", () => {
  test("an order the credit covers is paid at once, invoiced, and says which credit note paid it", async () => {
    const { user, creditCents, noteNumber } = await customerInCredit(100);
    const placed = await order(user, 50); // $500 of $1,250 credit
    expect(placed).toMatchObject({ status: "paid", balanceCents: 0, creditAppliedCents: placed.totalCents });
    expect(placed.creditUses).toEqual([expect.objectContaining({ noteNumber, amountCents: placed.totalCents })]);
    const stored = (await getOrderById(placed.id))!;
    expect(stored.invoiceNumber).toBeGreaterThan(0);
    expect(await heldCents(user.companyId!)).toBe(creditCents - placed.totalCents);
    // The ledger: the invoice is settled by the credit; the account still holds the rest.
    expect(await ledgerClean(user.companyId!)).toBe(-(creditCents - placed.totalCents));
  });

  test("a card order bigger than the credit asks the card for the rest only, and is paid by it", async () => {
    const { user, creditCents } = await customerInCredit(40); // $500 of credit
    const placed = await order(user, 100); // $1,000
    expect(placed).toMatchObject({ status: "unpaid", creditAppliedCents: creditCents });
    expect(placed.toPayCents).toBe(placed.totalCents - creditCents);
    // Stripe's evidence for the whole total is not this order's (it is given back); the rest is.
    const whole = await applyPaymentEvidence({
      orderId: placed.id,
      transactionId: stripeId("pi"),
      amountCents: placed.totalCents,
      currency: "usd",
    });
    expect(whole).toBe("mismatch");
    const rest = await applyPaymentEvidence({
      orderId: placed.id,
      transactionId: stripeId("pi"),
      amountCents: placed.toPayCents,
      currency: "usd",
    });
    expect(rest).toBe("paid");
    const paid = (await getOrderById(placed.id))!;
    expect(paid).toMatchObject({ status: "paid", paidCents: placed.toPayCents, balanceCents: 0 });
    expect(await heldCents(user.companyId!)).toBe(0);
    expect(await ledgerClean(user.companyId!)).toBe(0);
  });

  test("an unpaid order that ends gives its credit back", async () => {
    const { user, creditCents } = await customerInCredit(40);
    const placed = await order(user, 100);
    expect(await heldCents(user.companyId!)).toBe(0);
    expect(await cancelOrder(placed.id, { id: user.id, companyId: user.companyId })).not.toBeNull();
    expect(await heldCents(user.companyId!)).toBe(creditCents);
    expect((await getOrderById(placed.id))!.creditAppliedCents).toBe(0);
    // The next order takes it again.
    const next = await order(user, 10);
    expect(next.status).toBe("paid");
  });

  test("credit put on the account comes off its open invoices on account, oldest first", async () => {
    const { user, order: paid } = await paidOrder(100, "bank-transfer");
    const onAccount = { onAccount: { termsDays: 30 }, payment: "account" as const };
    const first = await order(user, 30, onAccount); // $300
    const second = await order(user, 80, onAccount); // $800
    expect([first.status, second.status]).toEqual(["account", "account"]);
    // $1,250 of credit: the first invoice is paid, the second takes the rest ($950 of $800: all of it).
    const cancelled = await cancelPaidOrderWithCredit(paid.id, staff);
    expect(cancelled.ok).toBe(true);
    const [a, b] = await Promise.all([getOrderById(first.id), getOrderById(second.id)]);
    expect(a).toMatchObject({ balanceCents: 0, creditAppliedCents: first.totalCents });
    expect(b).toMatchObject({ balanceCents: 0, creditAppliedCents: second.totalCents });
    expect(await heldCents(user.companyId!)).toBe(paid.totalCents - first.totalCents - second.totalCents);
    expect(await ledgerClean(user.companyId!)).toBe(-(paid.totalCents - first.totalCents - second.totalCents));
  });

  test("two orders at once never use the same credit twice", async () => {
    const { user, creditCents } = await customerInCredit(40); // $500
    const placed = await Promise.all([order(user, 40), order(user, 40), order(user, 40)]); // $400 each
    const applied = placed.reduce((sum, each) => sum + each.creditAppliedCents, 0);
    expect(applied).toBe(creditCents);
    const stored = await Promise.all(placed.map((each) => getOrderById(each.id)));
    expect(stored.reduce((sum, each) => sum + each!.creditAppliedCents, 0)).toBe(creditCents);
    expect(await heldCents(user.companyId!)).toBe(0);
    await ledgerClean(user.companyId!);
  });

  test("a payout pays only the credit the account still holds", async () => {
    const { user, order: paid } = await paidOrder(40, "bank-transfer");
    const cancelled = await cancelPaidOrderWithCredit(paid.id, staff);
    if (!cancelled.ok || !cancelled.note) throw new Error("not credited");
    const placed = await order(user, 30); // $300 of $500
    expect(placed.status).toBe("paid");
    const out = await payOutCredit(paid.id, cancelled.note.id, "OUT-1", staff);
    if (!out.ok) throw new Error(out.message);
    expect(out.note.payout?.amountCents).toBe(paid.totalCents - placed.totalCents);
    expect(await heldCents(user.companyId!)).toBe(0);
    expect(await ledgerClean(user.companyId!)).toBe(0);
    const again = await payOutCredit(paid.id, cancelled.note.id, "OUT-2", staff);
    expect(again).toMatchObject({ ok: false, status: 409 });
  });

  test("a claim a crash left untaken goes back to its note; a failure after the claim gives it back", async () => {
    const { user, creditCents, noteOrderId } = await customerInCredit(40);
    const placed = await order(user, 100, { bankTransfer: true, payment: "bank-transfer" });
    expect(placed.creditAppliedCents).toBe(creditCents);
    // As a crash between the two writes leaves it: the note's claim pending, the order without the use.
    await Order.updateOne({ _id: placed.id }, { $unset: { creditUses: 1, creditAppliedCents: 1, chargeCents: 1 } });
    await Order.updateOne({ _id: noteOrderId }, { $set: { "creditNotes.0.uses.0.pending": true } });
    expect(await creditHeldBy(user.companyId!)).toEqual([]);
    expect(await sweepCreditClaims({ graceMs: 0 })).toBeGreaterThanOrEqual(1);
    expect(await heldCents(user.companyId!)).toBe(creditCents);

    const failing = APPLY_CREDIT_STEPS[0];
    await expect(
      applyCreditTo((await getOrderById(placed.id))!, {
        seam: {
          afterStep: (name) => {
            if (name === failing) throw new Error(`failed after ${name}`);
          },
        },
      }),
    ).rejects.toThrow(`failed after ${failing}`);
    expect(await heldCents(user.companyId!)).toBe(creditCents);
    expect((await getOrderById(placed.id))!.creditAppliedCents).toBe(0);
    // Without the failure it is taken.
    const taken = await applyCreditTo((await getOrderById(placed.id))!);
    expect(taken).toMatchObject({ ok: true, appliedCents: creditCents });
    await ledgerClean(user.companyId!);
  });

  test("staff take the account's credit off an order they choose; a bad amount is refused at the field, nothing taken", async () => {
    const { user, order: paid } = await paidOrder(40, "bank-transfer");
    // A card order awaiting payment, placed before the credit arose: nothing came off it.
    const waiting = await order(user, 100);
    expect(waiting.creditAppliedCents).toBe(0);
    const cancelled = await cancelPaidOrderWithCredit(paid.id, staff);
    if (!cancelled.ok || !cancelled.note) throw new Error("not credited");
    const credit = cancelled.note.totalCents;

    const admin = await createUser({ role: "admin" });
    const cookie = await sessionCookieHeader(admin.id);
    const path = `/dashboard/manageOrders/${waiting.id}`;
    const page = await settle(staffOrderLoader(loaderArgs(getRequest(path, { cookie }), { id: waiting.id })));
    expect((await page.json()).creditHeldCents).toBe(credit);
    const apply = (amount: string) =>
      settle(
        staffOrderAction(
          actionArgs(postRequest(path, { intent: "apply-credit", amount }, { cookie }), { id: waiting.id }),
        ),
      );
    for (const [amount, message] of [
      ["ten dollars", "Enter an amount such as 1250.00"],
      ["0", "The amount must be more than 0"],
      ["-5", "The amount must be more than 0"],
    ]) {
      await expectFieldError(await apply(amount), "amount", message);
      expect((await getOrderById(waiting.id))!.creditAppliedCents).toBe(0);
    }
    expect((await apply("100.00")).status).toBe(302);
    expect((await getOrderById(waiting.id))!).toMatchObject({ creditAppliedCents: 10_000 });
    // Empty: as much as the account holds (less than the order here).
    expect((await apply("")).status).toBe(302);
    const after = (await getOrderById(waiting.id))!;
    expect(after).toMatchObject({ creditAppliedCents: credit, toPayCents: after.totalCents - credit });
    expect(await heldCents(user.companyId!)).toBe(0);
    expect(await Audit.countDocuments({ action: "order.apply-credit", targetId: waiting.id })).toBe(2);
    // Nothing left to take: said so, nothing written.
    const none = await apply("");
    expect(none.status).toBe(409);
    expect(JSON.stringify(await none.json())).toContain("holds no credit");
  });
});
