import { describe, expect, test } from "vitest";
import { orderTimeline } from "./order-timeline";

const placed = {
  userName: "Ada Buyer",
  userEmail: "ada@example.com",
  createdAt: "2026-03-02T09:00:00.000Z",
  paidAt: null,
  shippedAt: null,
  cancelledAt: null,
  removedAt: null,
};

describe("an order's timeline", () => {
  test("the customer reads 'you' and 'the shop'; an admin reads names and the staff's email", () => {
    const order = { ...placed, shippedAt: "2026-03-03T10:00:00.000Z" };
    expect(orderTimeline(order, "customer").map((event) => event.actor)).toEqual(["you", "the shop"]);
    expect(orderTimeline(order, "admin", { shipped: "sam@works.example" }).map((event) => event.actor)).toEqual([
      "Ada Buyer (ada@example.com)",
      "the shop (sam@works.example)",
    ]);
  });

  test("placing comes first, the rest in the order it happened: on account, shipped before paid", () => {
    const order = {
      ...placed,
      paymentMethod: "account" as const,
      dueAt: "2026-04-01T00:00:00.000Z",
      shippedAt: "2026-03-03T10:00:00.000Z",
      paidAt: "2026-03-20T10:00:00.000Z",
    };
    const events = orderTimeline(order, "customer");
    expect(events.map((event) => event.event)).toEqual(["placed", "account", "shipped", "paid"]);
    expect(events[1].label).toMatch(/^On account, due /);
    expect(events[3].actor).toBe("you, payments recorded by the shop");
  });

  test("a reversed payment shows both entries, the reason, and who reversed it to admins only", () => {
    const payment = {
      amountCents: 12_345,
      method: "bank-transfer" as const,
      receivedOn: "2026-03-05T00:00:00.000Z",
      recordedAt: "2026-03-05T12:00:00.000Z",
      recordedBy: "kim@works.example",
      reference: "BT-77",
      reversedAt: "2026-03-06T12:00:00.000Z",
      reversedBy: "lee@works.example",
      reversalReason: "Bounced",
    };
    const customer = orderTimeline({ ...placed, payments: [payment] }, "customer");
    expect(customer.map((event) => event.event)).toEqual(["placed", "payment", "reversal"]);
    expect(customer[1].label).toContain("$123.45");
    expect(customer[1].label).toContain("reference BT-77");
    expect(customer[2].label).toContain("Bounced");
    expect(customer[2].actor).toBe("the shop");
    expect(orderTimeline({ ...placed, payments: [payment] }, "admin")[2].actor).toBe("the shop (lee@works.example)");
  });

  test("a return asked for, declined, and a credit note refunded to the card", () => {
    const order = {
      ...placed,
      paidAt: "2026-03-02T09:05:00.000Z",
      transactionId: "pi_1",
      returns: [
        {
          number: null,
          status: "declined" as const,
          reason: "wrong-part-ordered" as const,
          lines: [{ productName: "Brake pad set", quantity: 2, receivedQuantity: null, condition: null }],
          requestedAt: "2026-03-10T08:00:00.000Z",
          requestedByName: "Ada Buyer",
          decidedAt: "2026-03-11T08:00:00.000Z",
          decidedBy: "kim@works.example",
          declineReason: "Fitted already",
          receivedAt: null,
          receivedBy: null,
        },
      ],
      creditNotes: [
        {
          number: "CN-000007",
          issuedAt: "2026-03-12T08:00:00.000Z",
          issuedBy: "kim@works.example",
          totalCents: 5_000,
          refundCents: 5_000,
          refund: { id: "re_1", status: "succeeded", refundedAt: "2026-03-12T08:01:00.000Z" },
        },
      ],
    };
    const events = orderTimeline(order, "customer");
    expect(events.map((event) => event.event)).toEqual([
      "placed",
      "paid",
      "return-requested",
      "return-declined",
      "credit-note",
      "refund",
    ]);
    expect(events[1].actor).toBe("you, by card through Stripe");
    expect(events[3].label).toBe("Return declined: Fitted already");
    expect(events[5].label).toBe("Refunded to the card: $50.00");
    expect(orderTimeline(order, "admin").at(-1)?.label).toBe("Refunded to the card: $50.00 (re_1)");
    // An order sold in pounds tells its money in pounds.
    expect(orderTimeline({ ...order, currency: "GBP" }, "customer").at(-1)?.label).toBe("Refunded to the card: £50.00");
  });

  test("a refund Stripe reported failed says so, with the amount to pay back by bank, and then its payout", () => {
    const order = {
      ...placed,
      paidAt: "2026-03-02T09:05:00.000Z",
      transactionId: "pi_2",
      creditNotes: [
        {
          number: "CN-000008",
          issuedAt: "2026-03-12T08:00:00.000Z",
          issuedBy: null,
          totalCents: 2_500,
          refundCents: 2_500,
          refund: { id: "re_2", status: "failed", refundedAt: null, failedAt: "2026-03-13T08:00:00.000Z" },
          payout: { paidAt: "2026-03-14T08:00:00.000Z", amountCents: 2_500, reference: "BACS-1", by: null },
        },
      ],
    };
    const events = orderTimeline(order, "customer");
    expect(events.map((event) => event.event)).toEqual(["placed", "paid", "credit-note", "refund-failed", "payout"]);
    expect(events[3].label).toBe("Refund to the card failed: $25.00 to pay back by bank transfer");
  });

  test("a reorder links to the earlier order on the reader's own screens", () => {
    const order = { ...placed, reorderedFrom: "abc123", reorderedFromNumber: "SO-100001" };
    expect(orderTimeline(order, "customer")[1].link).toEqual({ to: "/dashboard/orders/abc123", text: "SO-100001" });
    expect(orderTimeline(order, "admin")[1].link?.to).toBe("/dashboard/manageOrders/abc123");
  });

  test("a colleague reads the placer's name; an owner's decision is an entry naming them, a decline with its reason", () => {
    expect(orderTimeline(placed, "colleague")[0].actor).toBe("Ada Buyer");
    const decided = (outcome: "approved" | "declined", note: string | null) => ({
      ...placed,
      cancelledAt: outcome === "declined" ? "2026-03-02T11:00:00.000Z" : null,
      approval: { outcome, decidedByName: "Olga Owner", decidedAt: "2026-03-02T11:00:00.000Z", note },
    });
    const approved = orderTimeline(decided("approved", null), "customer");
    expect(approved.map((event) => [event.event, event.label, event.actor])).toEqual([
      ["placed", "Placed", "you"],
      ["approved", "Approved by Olga Owner", ""],
    ]);
    // The decline is the cancellation: one entry, with the owner's reason.
    expect(orderTimeline(decided("declined", "Order it in May"), "colleague").map((event) => event.label)).toEqual([
      "Placed",
      "Declined by Olga Owner, reason: “Order it in May”",
    ]);
    // Still waiting: no decision yet.
    expect(
      orderTimeline(
        { ...placed, approval: { outcome: null, decidedByName: null, decidedAt: null, note: null } },
        "customer",
      ),
    ).toHaveLength(1);
  });
});
