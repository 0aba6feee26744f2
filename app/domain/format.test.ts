import { describe, expect, test } from "vitest";
import { formatCents } from "./format";

describe("formatCents: the one money formatter", () => {
  test("always with cents, whole dollars too", () => {
    expect(formatCents(125_000)).toBe("$1,250.00");
    expect(formatCents(724_880)).toBe("$7,248.80");
    expect(formatCents(5)).toBe("$0.05");
  });
  test("plain: the same digits for a spreadsheet, without the sign and grouping", () => {
    expect(formatCents(125_000, { plain: true })).toBe("1250.00");
    expect(formatCents(724_880, { plain: true })).toBe("7248.80");
    expect(formatCents(2450, { plain: true })).toBe("24.50");
  });
});
