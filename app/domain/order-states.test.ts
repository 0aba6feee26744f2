import { describe, expect, it } from "vitest";
import {
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
