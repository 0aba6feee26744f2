import { describe, expect, it } from "vitest";
import { capRefusal, creditMessage, type UnpaidCaps } from "./order-caps";

const verified: UnpaidCaps = { orders: 3, valueCents: 2_500_000, verified: true, own: false };
const unverified: UnpaidCaps = { orders: 1, valueCents: 50_000, verified: false, own: false };

describe("caps on unpaid orders", () => {
  it.each([
    [verified, { count: 0, totalCents: 0 }, 100_000],
    [verified, { count: 2, totalCents: 2_000_000 }, 500_000],
    [unverified, { count: 0, totalCents: 0 }, 50_000],
  ])("an order that fits is not refused (%#)", (caps, open, total) => {
    expect(capRefusal(caps, open, total)).toBeNull();
  });
  it("counts orders before money, and names how many are open", () => {
    expect(capRefusal(verified, { count: 3, totalCents: 10 }, 1)).toMatch(
      /already have 3 orders awaiting card payment, the most an account may hold unpaid \(3\)/,
    );
  });
  it("says one order in the singular", () => {
    expect(capRefusal(unverified, { count: 1, totalCents: 10 }, 1)).toMatch(/1 order awaiting/);
  });
  it("names the value already waiting when the total is over", () => {
    const refusal = capRefusal(verified, { count: 1, totalCents: 2_000_000 }, 600_000);
    expect(refusal).toContain("$6,000.00");
    expect(refusal).toContain("already awaiting payment");
    expect(refusal).toContain("$25,000.00");
  });
  it("says the amounts in the order's currency", () => {
    const refusal = capRefusal(verified, { count: 1, totalCents: 2_000_000 }, 600_000, "GBP");
    expect(refusal).toContain("This order of £6,000.00 with the £20,000.00 already awaiting payment");
    expect(refusal).not.toContain("$");
    expect(creditMessage({ limitCents: 100_000, balanceCents: 90_000, orderCents: 20_000 }, "EUR")).toMatch(
      /^This order \(€200\.00\) would take your account past its credit limit of €1,000\.00: €900\.00 is open/,
    );
  });
  it("asks an unverified account to verify its email, and no one else", () => {
    expect(capRefusal(unverified, { count: 0, totalCents: 0 }, 60_000)).toMatch(/verify your email/);
    expect(capRefusal(verified, { count: 0, totalCents: 0 }, 3_000_000)).not.toMatch(/verify/);
    expect(capRefusal({ ...unverified, own: true }, { count: 0, totalCents: 0 }, 60_000)).not.toMatch(/verify/);
  });
  it("speaks of the customer's own account when an admin set its caps", () => {
    expect(capRefusal({ ...verified, own: true }, { count: 3, totalCents: 0 }, 1)).toMatch(/your account/);
  });
});
