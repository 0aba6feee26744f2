import { describe, expect, it } from "vitest";
import { formatOrderNumber, parseOrderNumber } from "./order-number";

describe("order numbers", () => {
  it("are written SO- and digits", () => {
    expect(formatOrderNumber(100017)).toBe("SO-100017");
  });
  it.each([
    ["SO-100017", 100017],
    ["so100017", 100017],
    ["SO 100017", 100017],
    [" 100017 ", 100017],
    ["So-7", 7],
  ])("%j reads as %i", (text, number) => {
    expect(parseOrderNumber(text)).toBe(number);
  });
  it.each(["", "SO-", "SO--1", "SO-0", "PO-100017", "100017x", "SO-1234567890123", "-5", "1e5"])(
    "%j is not an order number",
    (text) => {
      expect(parseOrderNumber(text)).toBeNull();
    },
  );
  it("reads back what it writes", () => {
    for (const number of [1, 100001, 999999999]) expect(parseOrderNumber(formatOrderNumber(number))).toBe(number);
  });
});
