import { describe, expect, test } from "vitest";
import { restockText } from "./restock";

const order = (n: number, quantity: number) => ({ orderId: `o${n}`, orderNumber: `SO-${100000 + n}`, quantity });

describe("a restock in words", () => {
  test("what arrived, what went to which backorders, and what is left to sell", () => {
    expect(
      restockText({ received: 300, allocations: [order(1, 100), order(2, 60), order(3, 40)], available: 100 }),
    ).toBe("300 received: 200 allocated to 3 backorders (SO-100001, SO-100002, SO-100003), 100 now available");
    expect(restockText({ received: 250, allocations: [order(7, 200)], available: 50 })).toBe(
      "250 received: 200 allocated to 1 backorder (SO-100007), 50 now available",
    );
  });
  test("nothing waiting: what arrived is available; thousands grouped", () => {
    expect(restockText({ received: 1500, allocations: [], available: 2000 })).toBe(
      "1,500 received, 2,000 now available",
    );
  });
  test("an order given stock twice (two parts of one import) counts once; many orders are counted, not all named", () => {
    expect(restockText({ received: 300, allocations: [order(1, 100), order(1, 50)], available: 150 })).toBe(
      "300 received: 150 allocated to 1 backorder (SO-100001), 150 now available",
    );
    const many = Array.from({ length: 8 }, (_, i) => order(i + 1, 10));
    expect(restockText({ received: 80, allocations: many, available: 0 })).toBe(
      "80 received: 80 allocated to 8 backorders (SO-100001, SO-100002, SO-100003, SO-100004, SO-100005 and 3 more), 0 now available",
    );
  });
});
