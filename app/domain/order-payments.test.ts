import { describe, expect, it } from "vitest";
import { paymentLine, receivedPayments, termsOf, type PaymentFacts } from "./order-payments";

const order = (over: Partial<PaymentFacts>): PaymentFacts => ({
  paymentMethod: "card",
  termsDays: null,
  transactionId: null,
  paidAt: null,
  paidCents: 0,
  totalCents: 100_000,
  balanceCents: 100_000,
  payments: [],
  ...over,
});
const transfer = (amountCents: number, receivedOn: string, reference = "BACS 1", reversedAt: string | null = null) => ({
  amountCents,
  method: "bank-transfer" as const,
  receivedOn,
  reference,
  reversedAt,
});

describe("how an order's money came", () => {
  it("a card payment is one payment with Stripe's id", () => {
    const paid = order({ transactionId: "pi_1", paidAt: "2026-11-02T10:00:00Z", paidCents: 100_000, balanceCents: 0 });
    expect(receivedPayments(paid)).toEqual([
      { on: "2026-11-02T10:00:00Z", method: "Card", means: "card", reference: "pi_1", amountCents: 100_000 },
    ]);
    expect(termsOf(paid)).toBe("Card, at the time of order");
    expect(paymentLine(paid)).toBe("Paid by card");
  });
  it("recorded payments are listed oldest first, reversed ones left out", () => {
    const paid = order({
      paymentMethod: "bank-transfer",
      paidCents: 100_000,
      balanceCents: 0,
      payments: [
        transfer(60_000, "2026-11-05", "B"),
        transfer(40_000, "2026-11-03", "A"),
        transfer(5, "2026-11-04", "X", "2026-11-04"),
      ],
    });
    expect(receivedPayments(paid).map((payment) => payment.reference)).toEqual(["A", "B"]);
    expect(termsOf(paid)).toBe("Bank transfer before dispatch (pro-forma)");
    expect(paymentLine(paid)).toBe("Paid by bank transfer");
  });
  it("a bank-transfer order before the money comes awaits payment", () => {
    expect(paymentLine(order({ paymentMethod: "bank-transfer" }))).toBe("Bank transfer (pro-forma), awaiting payment");
  });
  it("an order on account says its terms, and what is still due when part-paid", () => {
    const account = order({ paymentMethod: "account", termsDays: 30 });
    expect(termsOf(account)).toBe("Net 30 days");
    expect(paymentLine(account)).toBe("On account, net 30 days");
    const part = order({
      paymentMethod: "account",
      termsDays: 30,
      paidCents: 40_000,
      balanceCents: 60_000,
      payments: [{ ...transfer(40_000, "2026-11-03"), method: "cheque" }],
    });
    expect(paymentLine(part)).toMatch(/^On account, net 30 days; part-paid by cheque, \$600(\.00)? still due$/);
    expect(paymentLine({ ...part, currency: "EUR" })).toBe(
      "On account, net 30 days; part-paid by cheque, €600.00 still due",
    );
  });
  it("names several ways of paying", () => {
    const mixed = order({
      paymentMethod: "bank-transfer",
      paidCents: 100_000,
      balanceCents: 0,
      payments: [transfer(50_000, "2026-11-03"), { ...transfer(50_000, "2026-11-04"), method: "cash" }],
    });
    expect(paymentLine(mixed)).toBe("Paid by bank transfer and cash");
  });
});
