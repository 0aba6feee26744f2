import { describe, expect, it } from "vitest";
import {
  cancelledMoneyWords,
  type CreditedMoney,
  ORDER_STATE_MEANINGS,
  ORDER_STATE_WORDS,
  ORDER_STATES,
  orderState,
  orderStateText,
  removableByStaff,
  termsWords,
} from "./order-states";

const now = new Date("2026-11-27T12:00:00Z");
const base = { totalCents: 10_000, paidCents: 0 };

describe("an order's state", () => {
  it.each([
    [{ status: "cancelled" }, "cancelled"],
    [{ status: "removed" }, "removed"],
    [{ status: "expired" }, "expired"],
    [{ status: "approval" }, "approval"],
    [{ status: "unpaid" }, "unpaid"],
    [{ status: "unpaid", paidCents: 4_000 }, "part-paid"],
    [{ status: "paid", paidCents: 10_000, paidAt: now }, "pending"],
    [{ status: "paid", paidCents: 10_000, paidAt: now, partShipped: true }, "part-shipped"],
    [{ status: "shipped", paidCents: 10_000, paidAt: now }, "shipped"],
    [{ status: "account", dueAt: "2026-12-27T00:00:00Z" }, "on-account"],
    [{ status: "account", dueAt: "2026-11-01T00:00:00Z" }, "overdue"],
    [{ status: "account", dueAt: "2026-12-27T00:00:00Z", paidCents: 2_000 }, "part-paid"],
    [{ status: "shipped", dueAt: "2026-12-27T00:00:00Z" }, "on-account"],
    [{ status: "shipped", dueAt: "2026-11-01T00:00:00Z" }, "overdue"],
  ])("%o is %s", (order, state) => {
    expect(orderState({ ...base, ...order }, now)).toBe(state);
  });
  it.each(ORDER_STATES.map((state) => [state]))("%s has a word and a meaning", (state) => {
    expect(ORDER_STATE_WORDS[state]).toMatch(/^[A-Z]/);
    expect(ORDER_STATE_MEANINGS[state]).toMatch(/^[A-Z]/);
  });
  it("says when an order on account is due, and since when it is overdue", () => {
    expect(orderStateText({ state: "on-account", dueAt: "2026-12-25T00:00:00Z" })).toMatch(/, due Dec 25, 2026$/);
    expect(orderStateText({ state: "overdue", dueAt: "2026-11-01T00:00:00Z" })).toMatch(/, was due Nov 1, 2026$/);
    expect(orderStateText({ state: "unpaid", dueAt: null })).toBe(ORDER_STATE_WORDS.unpaid);
  });
  it("lets staff remove only orders that hold stock with nothing paid", () => {
    expect(ORDER_STATES.filter(removableByStaff)).toEqual(["approval", "unpaid"]);
  });
  it("words payment terms", () => {
    expect(termsWords(30)).toBe("Net 30 days");
    expect(termsWords(0)).toBe("None (card only)");
    expect(termsWords(null)).toBe("None (card only)");
  });
});

const note = (money: Partial<CreditedMoney>): CreditedMoney => ({
  refundCents: 0,
  accountCreditCents: 0,
  refund: null,
  payout: null,
  ...money,
});
const refunded = note({ refundCents: 1_250, refund: { status: "succeeded" } });
const credited = note({ accountCreditCents: 1_250 });

describe("a cancelled order that was paid", () => {
  const cancelled = (creditNotes: CreditedMoney[]) => ({ state: "cancelled" as const, dueAt: null, creditNotes });
  it("says where its money went, never that it is paid", () => {
    expect(orderStateText(cancelled([refunded]))).toBe("Cancelled · refunded");
    expect(orderStateText(cancelled([credited]))).toBe("Cancelled · credited");
    expect(
      orderStateText(cancelled([note({ refundCents: 500, accountCreditCents: 750, refund: { status: "pending" } })])),
    ).toBe("Cancelled · refunded and credited");
    // A card refund that failed is the customer's money held for them: credited.
    expect(orderStateText(cancelled([note({ refundCents: 1_250, refund: { status: "failed" } })]))).toBe(
      "Cancelled · credited",
    );
    expect(orderStateText(cancelled([]))).toBe("Cancelled");
    // An invoice on account cancelled before anything was paid: the credit note only clears it.
    expect(orderStateText(cancelled([note({})]))).toBe("Cancelled");
  });

  it("tells the customer in one sentence, with the way to ask for money held on their account", () => {
    const words = (creditNotes: CreditedMoney[], mayAsk = true, paid = true) =>
      cancelledMoneyWords({ state: "cancelled", paid, creditNotes }, mayAsk);
    expect(words([refunded])).toBe("Cancelled, $12.50 refunded to your card.");
    // In the order's currency.
    expect(
      cancelledMoneyWords({ state: "cancelled", paid: true, creditNotes: [refunded], currency: "EUR" }, true),
    ).toBe("Cancelled, €12.50 refunded to your card.");
    expect(words([note({ refundCents: 1_250, refund: { status: "pending" } })])).toBe(
      "Cancelled, $12.50 being refunded to your card.",
    );
    expect(words([credited])).toBe(
      "Cancelled, $12.50 credited to your account: it comes off your next order, or ask us to pay it out.",
    );
    expect(words([credited], false)).toMatch(/your company's owners or accounts can ask us to pay it out\.$/);
    expect(words([note({ refundCents: 500, accountCreditCents: 750, refund: { status: "succeeded" } })])).toBe(
      "Cancelled, $5.00 refunded to your card and $7.50 credited to your account: it comes off your next order, or ask us to pay it out.",
    );
    expect(words([note({ refundCents: 1_250, refund: { status: "failed" } })])).toBe(
      "Cancelled, $12.50 to come back to you by bank (the refund to your card did not go through).",
    );
    expect(
      words([
        note({
          accountCreditCents: 1_250,
          payout: { paidAt: "2026-11-20T10:00:00Z", amountCents: 1_250, reference: "PO-7" },
        }),
      ]),
    ).toBe("Cancelled, $12.50 paid out to your bank on Nov 20, 2026 (reference PO-7).");
    expect(words([note({})])).toBe("Cancelled: nothing is owed on it.");
    expect(words([], true, true)).toMatch(/credit note follows shortly/);
    expect(words([], true, false)).toBeNull();
  });
});
