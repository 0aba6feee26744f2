import { describe, expect, it } from "vitest";
import {
  describeOrder,
  lineProblem,
  MAX_LINE_QUANTITY,
  orderPath,
  orderSummary,
  PART_GONE_MESSAGE,
} from "./order-lines";

const part = { minOrderQuantity: 100, availableQuantity: 1500 };

describe("the rules of an order line", () => {
  it.each([100, 101, 1500])("%i units of a part with 1,500 available and a minimum of 100 is fine", (quantity) => {
    expect(lineProblem(part, quantity)).toBeNull();
  });
  it.each([
    [null, 100, "missing", PART_GONE_MESSAGE],
    [undefined, 100, "missing", PART_GONE_MESSAGE],
    [part, 1.5, "invalid-quantity", "whole number"],
    [part, Number.NaN, "invalid-quantity", "whole number"],
    [part, MAX_LINE_QUANTITY + 1, "invalid-quantity", "at most 10,000,000"],
    [part, 99, "below-minimum", "The minimum order is 100 units"],
    [part, 0, "below-minimum", "The minimum order is 100 units"],
    [part, 1501, "above-stock", "Only 1,500 units are available"],
    [{ minOrderQuantity: 1, availableQuantity: -3 }, 1, "above-stock", "Only 0 units are available"],
  ])("%o × %d is %s", (rules, quantity, reason, message) => {
    const problem = lineProblem(rules, quantity);
    expect(problem?.reason).toBe(reason);
    expect(problem?.message).toContain(message);
  });
});

describe("how lists name an order", () => {
  it.each([
    ["Brake pads", 1, "Brake pads"],
    ["Brake pads", 2, "Brake pads + 1 more"],
    ["Brake pads", 4, "Brake pads + 3 more"],
  ])("%s with %i lines", (name, count, expected) => {
    expect(orderSummary(name, count)).toBe(expected);
  });
  it("describes one line by quantity and several by lines and units", () => {
    expect(describeOrder({ summary: "Brake pads", lineCount: 1, totalQuantity: 1500 })).toBe("1,500 × Brake pads");
    expect(describeOrder({ summary: "Brake pads + 2 more", lineCount: 3, totalQuantity: 450 })).toBe(
      "3 lines (450 units): Brake pads + 2 more",
    );
  });
  it("links an order to the customer's page of it", () => {
    expect(orderPath("abc")).toBe("/dashboard/orders/abc");
  });
});
