import { describe, expect, test } from "vitest";
import { creditAmounts, REFUND_STATUSES, refundMayBecome, settleCredit, settlementWords } from "./credit-notes";

const order = {
  lines: [
    { quantity: 3, unitPriceCents: 333, lineTotalCents: 1000 },
    { quantity: 10, unitPriceCents: 250, lineTotalCents: 2500 },
  ],
  netCents: 3500,
  taxLines: [{ kind: "vat", label: "VAT 21%", rate: 21, amountCents: 735, note: null }],
};

describe("credit amounts", () => {
  test("units at the unit price, tax in proportion, and the last units take the line's whole rest", () => {
    const first = creditAmounts(order, [], [{ lineIndex: 0, quantity: 1 }]);
    expect(first).toMatchObject({ ok: true, amounts: { netCents: 333, taxCents: 70, totalCents: 403 } });
    if (!first.ok) return;
    const rest = creditAmounts(
      order,
      [first.amounts],
      [
        { lineIndex: 0, quantity: 2 },
        { lineIndex: 1, quantity: 10 },
      ],
    );
    expect(rest.ok).toBe(true);
    if (!rest.ok) return;
    // 1000 - 333 = 667 for the last two units (not 666), and the tax's whole rest once everything is credited.
    expect(rest.amounts.lines[0]).toEqual({ lineIndex: 0, quantity: 2, netCents: 667 });
    expect(first.amounts.netCents + rest.amounts.netCents).toBe(3500);
    expect(first.amounts.taxCents + rest.amounts.taxCents).toBe(735);
  });

  test("more units than are left to credit of a line are refused, with what is left", () => {
    const first = creditAmounts(order, [], [{ lineIndex: 1, quantity: 8 }]);
    if (!first.ok) throw new Error("refused");
    expect(creditAmounts(order, [first.amounts], [{ lineIndex: 1, quantity: 3 }])).toEqual({
      ok: false,
      lineIndex: 1,
      left: 2,
    });
  });

  test("the money goes to the card first, then off what is owed, the rest onto the account", () => {
    expect(settleCredit(1000, { cardPaidCents: 5000, refundedCents: 4500, balanceCents: 0 })).toEqual({
      refundCents: 500,
      appliedCents: 0,
      accountCreditCents: 500,
    });
    expect(settleCredit(1000, { cardPaidCents: 0, refundedCents: 0, balanceCents: 600 })).toEqual({
      refundCents: 0,
      appliedCents: 600,
      accountCreditCents: 400,
    });
  });
});

describe("refundMayBecome", () => {
  test("a pending refund takes any news; failed and canceled are final", () => {
    for (const next of ["succeeded", "failed", "canceled"] as const)
      expect(refundMayBecome("pending", next)).toBe(true);
    for (const current of ["failed", "canceled"] as const)
      for (const next of REFUND_STATUSES) expect(refundMayBecome(current, next), `${current} -> ${next}`).toBe(false);
  });

  test("a refund that went through stays so, but for a failure after it; the same news twice changes nothing", () => {
    expect(refundMayBecome("succeeded", "failed")).toBe(true);
    expect(refundMayBecome("succeeded", "pending")).toBe(false);
    expect(refundMayBecome("succeeded", "canceled")).toBe(false);
    expect(refundMayBecome("pending", "pending")).toBe(false);
  });
});

describe("settlementWords", () => {
  const settled = { refundCents: 0, appliedCents: 0, accountCreditCents: 0, refundStatus: null };
  test("credit that came off later orders is said so; only the rest is still on the account", () => {
    expect(settlementWords({ ...settled, accountCreditCents: 1_250, usedCents: 1_000 })).toBe(
      "$10.00 came off your later orders; $2.50 credited to your account (it comes off your next order).",
    );
    expect(settlementWords({ ...settled, accountCreditCents: 1_250, usedCents: 1_250 })).toBe(
      "$12.50 came off your later orders.",
    );
  });
  test("account credit comes off the next order (a customer who owes nothing is not told it comes off what they owe)", () => {
    expect(settlementWords({ ...settled, accountCreditCents: 1_250 })).toBe(
      "$12.50 credited to your account (it comes off your next order).",
    );
  });

  test("a mixed credit names each part, and a payout replaces the account credit", () => {
    expect(settlementWords({ ...settled, refundCents: 500, accountCreditCents: 750, refundStatus: "succeeded" })).toBe(
      "$5.00 refunded to the card; $7.50 credited to your account (it comes off your next order).",
    );
    expect(
      settlementWords({
        ...settled,
        accountCreditCents: 750,
        payout: { paidAt: "2026-11-20T10:00:00Z", reference: "PO-7", amountCents: 750 },
      }),
    ).toBe("$7.50 paid out to your bank on Nov 20, 2026 (reference PO-7).");
  });

  test("in the credited order's currency", () => {
    expect(
      settlementWords({ ...settled, refundCents: 500, accountCreditCents: 750, refundStatus: "succeeded" }, "EUR"),
    ).toBe("€5.00 refunded to the card; €7.50 credited to your account (it comes off your next order).");
    expect(settlementWords({ ...settled, appliedCents: 1_250 }, "GBP")).toBe(
      "£12.50 taken off what is due on the invoice.",
    );
  });
});
