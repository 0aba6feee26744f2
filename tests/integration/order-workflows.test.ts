/**
 * Every change of an order that writes more than one document is a workflow: approving and declining
 * an order that waits for approval, cancelling a paid order with its credit note, receiving a return
 * and crediting it, refunding a credit note's card money, and paying out account credit. Each test
 * fails every step in turn through the workflow's seam (`afterStep`), on the real services, the local
 * database and stripe-mock: a failure before the change stands leaves the database as it was; one
 * after it leaves the rest to the sweeps, and once they ran the order, its stock, credit notes,
 * refunds and mail are exactly those of a run that never failed.
 */
import { describe, expect, test, vi } from "vitest";
import { Audit } from "~/models/audit.server";
import type { AuditAction } from "~/services/audit-trail.server";
import { Company } from "~/models/company.server";
import { Outbox } from "~/models/outbox.server";
import { Part } from "~/models/part.server";
import { getUserById } from "~/models/user.server";
import { APPROVE_STEPS, approveCompanyOrder, DECLINE_STEPS, declineCompanyOrder } from "~/orders/approvals.server";
import { CANCEL_PAID_STEPS, cancelPaidOrderWithCredit } from "~/orders/credit-notes.server";
import { PAYOUT_STEPS, payOutCredit } from "~/orders/payouts.server";
import { REFUND_STEPS, refundToCard } from "~/orders/refunds.server";
import { issueCreditNote } from "~/orders/model/credit-notes.server";
import { getOrderById } from "~/orders/model/reads.server";
import { receiveReturn } from "~/orders/model/returns.server";
import { LedgerEntry } from "~/orders/model/ledger.server";
import { Order } from "~/orders/model/schema.server";
import { askForReturn, decideOnReturn, RECEIVE_RETURN_STEPS, receiveReturnedParts } from "~/orders/returns.server";
import { placeCustomerOrder } from "~/orders/service.server";
import { shipOrder } from "~/orders/warehouse.server";
import { DETROIT } from "../fixtures/addresses";
import { createPart, createUser } from "../setup/factories";
import { paidOrder as paidOrderOf, staff } from "../setup/paid-orders";
import { runSweepsNow } from "../setup/sweeps";

const delivery = { phone: "+1 555 0100", delivery: { ...DETROIT, line1: "1 Workflow Way" } };

type Seam = { afterStep?: (name: string) => void };

/** One order, ready for the workflow under test, and the workflow run on it. */
type Scenario = { orderId: string; partIds: string[]; run: (seam: Seam) => Promise<{ ok: boolean }> };

/** What a workflow may change: the order, its parts' stock and holds, its mail (ids made alike). */
async function state(orderId: string, partIds: string[]) {
  const doc = await Order.findById(orderId).lean();
  const parts = await Part.find({ _id: { $in: partIds } }, { availableQuantity: 1, onHand: 1, holds: 1 })
    .sort({ _id: 1 })
    .lean();
  const mail = await Outbox.find({ _id: { $regex: orderId } }, { _id: 1 }).lean();
  const ledger = await LedgerEntry.find({ orderId }, { kind: 1, amountCents: 1 }).lean();
  return JSON.parse(
    JSON.stringify({
      order: doc && {
        status: doc.status,
        numbered: Boolean(doc.invoiceNumber),
        invoicePending: Boolean(doc.invoicePending),
        eventsPending: [...(doc.eventsPending ?? [])].sort(),
        stockPending: doc.stockPending ?? null,
        creditPending: Boolean(doc.creditPending),
        approval: doc.approval?.outcome ?? null,
        backordered: doc.lines.map((line) => line.backorderedQuantity ?? 0),
        returns: (doc.returns ?? []).map((entry) => ({
          status: entry.status,
          creditPending: Boolean(entry.creditPending),
          stockPending: Boolean(entry.stockPending),
        })),
        creditNotes: (doc.creditNotes ?? []).map((note) => ({
          reason: note.reason,
          totalCents: note.totalCents,
          numbered: /^\d+$/.test(String(note.number ?? "")),
          refund: note.refund ? { status: note.refund.status, sent: Boolean(note.refund.id) } : null,
          accountCreditCents: note.accountCreditCents,
          paidOut: Boolean(note.payout),
        })),
      },
      parts: parts.map((part) => ({
        available: part.availableQuantity,
        onHand: part.onHand,
        holds: part.holds?.length ?? 0,
      })),
      ledger: ledger.map((entry) => `${entry.kind} ${entry.amountCents}`).sort(),
      mail: [
        ...new Set(mail.map((entry) => entry._id.replaceAll(orderId, "ORDER").replace(/[0-9a-f]{24}/g, "ID"))),
      ].sort(),
    }),
  );
}

/**
 * Fails the workflow after each of its steps but the last, then runs it whole. Up to `commit` the
 * failure reaches the caller and the database is as before; after it, the run answers, and the
 * sweeps bring the database to the state of the clean run.
 */
async function failEveryStep(steps: string[], commit: string, setup: () => Promise<Scenario>) {
  const clean = await setup();
  const cleanRun = await clean.run({});
  expect(cleanRun.ok).toBe(true);
  await runSweepsNow();
  const done = await state(clean.orderId, clean.partIds);
  expect(done.order.eventsPending, "a clean run leaves no event pending").toEqual([]);

  const error = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    for (const [index, failing] of steps.slice(0, -1).entries()) {
      const scenario = await setup();
      const before = await state(scenario.orderId, scenario.partIds);
      const ran: string[] = [];
      const run = scenario.run({
        afterStep: (name) => {
          ran.push(name);
          if (name === failing) throw new Error(`injected after ${name}`);
        },
      });
      if (index < steps.indexOf(commit)) {
        await expect(run, `a failure after ${failing}`).rejects.toThrow(`injected after ${failing}`);
        expect(await state(scenario.orderId, scenario.partIds), `after a failure after ${failing}`).toEqual(before);
      } else {
        expect((await run).ok, `the change stands after ${failing}`).toBe(true);
        await runSweepsNow();
        expect(await state(scenario.orderId, scenario.partIds), `swept after a failure after ${failing}`).toEqual(done);
      }
      expect(ran).toEqual(steps.slice(0, index + 1));
    }
  } finally {
    error.mockRestore();
  }
  return done;
}

/** An order over a buyer's limit, waiting for the owner's approval (on account, or by card). */
async function waitingOrder(payment: "card" | "account") {
  const owner = await createUser({ name: "Olga Owner" });
  await Company.updateOne(
    { _id: owner.companyId },
    { $set: { companyName: `Flow ${owner.id.slice(-5)}`, account: { termsDays: 30, creditLimitCents: 10_000_000 } } },
  );
  const buyer = await createUser({
    name: "Ben Buyer",
    company: { id: owner.companyId, role: "buyer" },
    spendingLimitCents: 1000,
  });
  const part = await createPart({ availableQuantity: 400, minOrderQuantity: 10 });
  const placed = await placeCustomerOrder({
    lines: [{ partId: part.id, quantity: 50 }],
    ...delivery,
    user: buyer,
    payment,
  });
  if (!placed.ok) throw new Error("not placed");
  expect(placed.order.status).toBe("approval");
  return { owner: (await getUserById(owner.id))!, orderId: placed.order.id, partIds: [part.id] };
}

/** A placed order of `quantity` units, paid by card (Stripe's evidence) or by bank transfer, its sweeps run. */
async function paidOrder(quantity: number, how: "card" | "bank-transfer") {
  const { user, order, part } = await paidOrderOf(quantity, how);
  await runSweepsNow();
  return { customer: user, orderId: order.id, partIds: [part.id] };
}

/** Shipped whole, `returned` units asked back and approved: ready to receive. */
async function approvedReturn(how: "card" | "bank-transfer") {
  const { customer, orderId, partIds } = await paidOrder(100, how);
  const sent = await shipOrder(
    orderId,
    { carrier: "ups", trackingNumber: "1Z999", lines: [{ lineIndex: 0, quantity: 100 }] },
    { ...staff, current: (await getOrderById(orderId))! },
  );
  if (!sent.ok) throw new Error(sent.message);
  const asked = await askForReturn(
    orderId,
    {
      lines: [{ lineIndex: 0, quantity: 30 }],
      reason: "damaged",
      note: "",
      requestedBy: customer.id,
      requestedByName: customer.name,
    },
    { actor: { id: customer.id, email: customer.email } },
  );
  if (!asked.ok) throw new Error(asked.message);
  const approved = await decideOnReturn(orderId, asked.entry.id, { approve: true }, staff);
  if (!approved.ok) throw new Error(approved.message);
  await runSweepsNow();
  return { orderId, partIds, returnId: asked.entry.id };
}

/** A received return whose credit note is written and numbered, and not refunded or paid out yet. */
async function creditedReturn(how: "card" | "bank-transfer") {
  const { orderId, partIds, returnId } = await approvedReturn(how);
  const received = await receiveReturn(orderId, returnId, { lines: [{ quantity: 20 }], condition: "restock" }, "staff");
  if (received.outcome !== "received") throw new Error(received.outcome);
  const issued = await issueCreditNote(orderId, { reason: "return", returnId }, "staff@example.com");
  if (issued.outcome !== "issued") throw new Error(issued.outcome);
  await Order.updateOne({ _id: orderId }, { $pull: { eventsPending: { $in: ["credit", "return"] } } });
  return { orderId, partIds, note: issued.note };
}

const auditsOf = (orderId: string, action: AuditAction) => Audit.countDocuments({ targetId: orderId, action });

describe("order workflows: a failure after each step", () => {
  test("approving: before the approval nothing changes; after it, the sweeps invoice and tell everyone", async () => {
    expect(APPROVE_STEPS).toEqual([
      "check-credit",
      "approve-order",
      "audit-approve",
      "number-invoice",
      "post-to-ledger",
      "raise-placed-event",
      "tell-buyer",
    ]);
    const done = await failEveryStep(APPROVE_STEPS, "approve-order", async () => {
      const { owner, orderId, partIds } = await waitingOrder("account");
      return { orderId, partIds, run: (seam) => approveCompanyOrder(owner, orderId, "Fine this once", seam) };
    });
    expect(done.order).toMatchObject({
      status: "account",
      numbered: true,
      invoicePending: false,
      approval: "approved",
    });
    expect(done.mail).toEqual(expect.arrayContaining(["approval-decided:ORDER", "order:ORDER:placed"]));
  });

  test("declining: the order is cancelled, its stock back once, and the buyer told, also when a step after the decline failed", async () => {
    expect(DECLINE_STEPS).toEqual([
      "decline-order",
      "audit-decline",
      "raise-cancelled-event",
      "allocate-stock",
      "tell-buyer",
    ]);
    const done = await failEveryStep(DECLINE_STEPS, "decline-order", async () => {
      const { owner, orderId, partIds } = await waitingOrder("card");
      return { orderId, partIds, run: (seam) => declineCompanyOrder(owner, orderId, "Too many", seam) };
    });
    expect(done.order).toMatchObject({ status: "cancelled", approval: "declined", stockPending: null });
    expect(done.parts).toEqual([{ available: 400, onHand: 400, holds: 0 }]);
    // The owners were asked, the buyer told it was submitted, then of the decline (it says the order is cancelled).
    expect(done.mail).toEqual(["approval-decided:ORDER", "approval-submitted:ORDER", "approval:ORDER:ID"]);
  });

  test("cancelling a card-paid order: cancelled, stock back, one credit note, its refund sent once and succeeded", async () => {
    expect(CANCEL_PAID_STEPS).toEqual([
      "cancel-order",
      "number-invoice",
      "allocate-stock",
      "raise-cancelled-event",
      "audit-cancel",
      "issue-credit-note",
      "refund-card",
      "post-to-ledger",
      "raise-credit-event",
      "audit-credit",
      "apply-account-credit",
    ]);
    let audited = "";
    const done = await failEveryStep(CANCEL_PAID_STEPS, "cancel-order", async () => {
      const { orderId, partIds } = await paidOrder(40, "card");
      audited ||= orderId;
      return { orderId, partIds, run: (seam) => cancelPaidOrderWithCredit(orderId, staff, seam) };
    });
    expect(done.order).toMatchObject({ status: "cancelled", numbered: true, creditPending: false, stockPending: null });
    expect(done.order.creditNotes).toEqual([
      expect.objectContaining({ reason: "cancellation", numbered: true, refund: { status: "succeeded", sent: true } }),
    ]);
    expect(done.parts).toEqual([{ available: 2000, onHand: 2000, holds: 0 }]);
    // The credit note's mail tells the customer of the cancellation and the refund.
    expect(done.mail).toEqual(["order:ORDER:credit-note:ID", "order:ORDER:paid", "order:ORDER:placed"]);
    // The clean run audited both changes once.
    expect(await auditsOf(audited, "order.cancel-paid")).toBe(1);
    expect(await auditsOf(audited, "order.credit-note")).toBe(1);
  });

  test("receiving a card-paid return: received, the units back on the shelf, one credit note refunded once", async () => {
    expect(RECEIVE_RETURN_STEPS).toEqual([
      "receive-return",
      "allocate-stock",
      "raise-return-event",
      "audit-receive",
      "issue-credit-note",
      "refund-card",
      "post-to-ledger",
      "raise-credit-event",
      "audit-credit",
      "apply-account-credit",
    ]);
    const done = await failEveryStep(RECEIVE_RETURN_STEPS, "receive-return", async () => {
      const { orderId, partIds, returnId } = await approvedReturn("card");
      return {
        orderId,
        partIds,
        run: (seam) =>
          receiveReturnedParts(orderId, returnId, { lines: [{ quantity: 20 }], condition: "restock" }, staff, seam),
      };
    });
    expect(done.order.returns).toEqual([{ status: "received", creditPending: false, stockPending: false }]);
    expect(done.order.creditNotes).toEqual([
      expect.objectContaining({ reason: "return", numbered: true, refund: { status: "succeeded", sent: true } }),
    ]);
    // 2,000 less the 100 shipped, and 20 back.
    expect(done.parts).toEqual([{ available: 1920, onHand: 1920, holds: 0 }]);
    expect(done.mail).toEqual(expect.arrayContaining(["order:ORDER:return:ID:received", "order:ORDER:credit-note:ID"]));
  });

  test("refunding a credit note: Stripe asked once, its answer recorded, the refund's event raised", async () => {
    expect(REFUND_STEPS).toEqual(["ask-stripe", "record-refund", "post-to-ledger", "raise-refunded-event"]);
    const done = await failEveryStep(REFUND_STEPS, "ask-stripe", async () => {
      const { orderId, partIds, note } = await creditedReturn("card");
      return {
        orderId,
        partIds,
        run: async (seam) => {
          await refundToCard((await getOrderById(orderId))!, note, seam);
          return { ok: true };
        },
      };
    });
    expect(done.order.creditNotes).toEqual([
      expect.objectContaining({ reason: "return", refund: { status: "succeeded", sent: true } }),
    ]);
  });

  test("paying out account credit: recorded once; a second payout is refused", async () => {
    expect(PAYOUT_STEPS).toEqual(["record-payout", "post-to-ledger", "raise-paid-out-event", "audit-payout"]);
    const done = await failEveryStep(PAYOUT_STEPS, "record-payout", async () => {
      const { orderId, partIds, note } = await creditedReturn("bank-transfer");
      return { orderId, partIds, run: (seam) => payOutCredit(orderId, note.id, "BANK-OUT-1", staff, seam) };
    });
    expect(done.order.creditNotes).toEqual([expect.objectContaining({ reason: "return", paidOut: true })]);
    const { orderId, note } = await creditedReturn("bank-transfer");
    expect((await payOutCredit(orderId, note.id, "BANK-OUT-2", staff)).ok).toBe(true);
    expect(await payOutCredit(orderId, note.id, "BANK-OUT-3", staff)).toMatchObject({ ok: false, status: 409 });
    expect(await auditsOf(orderId, "order.payout")).toBe(1);
  });
});
