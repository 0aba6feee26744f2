import { describe, expect, test } from "vitest";
import { formatCents, formatDate, formatDateTime, formatMoney, formatQuantity, formatUnits } from "~/format";

describe("money, written one way", () => {
  test("always with cents, whole dollars too, so amounts side by side read alike", () => {
    expect(formatCents(95_400)).toBe("$954.00");
    expect(formatCents(496_080)).toBe("$4,960.80");
    expect(formatCents(125_000)).toBe("$1,250.00");
    expect(formatCents(5)).toBe("$0.05");
    expect(formatCents(0)).toBe("$0.00");
    expect(formatCents(1_000_000_000)).toBe("$10,000,000.00");
    expect(formatMoney(2450)).toBe("$24.50");
  });
  test("a negative amount keeps its sign and its cents", () => {
    expect(formatCents(-60_000)).toBe("-$600.00");
  });
  test("plain: the same digits for a spreadsheet, without the sign and grouping", () => {
    expect(formatCents(125_000, { plain: true })).toBe("1250.00");
    expect(formatCents(724_880, { plain: true })).toBe("7248.80");
    expect(formatCents(2450, { plain: true })).toBe("24.50");
    expect(formatCents(0, { plain: true })).toBe("0.00");
  });
});

describe("quantities and dates, written one way", () => {
  test("quantities with thousands separators, and with their unit", () => {
    expect(formatQuantity(0)).toBe("0");
    expect(formatQuantity(300)).toBe("300");
    expect(formatQuantity(12500)).toBe("12,500");
    expect(formatQuantity(1_000_000)).toBe("1,000,000");
    expect(formatUnits(1)).toBe("1 unit");
    expect(formatUnits(0)).toBe("0 units");
    expect(formatUnits(1200)).toBe("1,200 units");
    expect(formatUnits(2, "part")).toBe("2 parts");
  });
  test("a time always says its time zone; a day has no time", () => {
    expect(formatDateTime("2026-11-27T14:48:00.000Z")).toBe("Nov 27, 2026, 2:48 PM UTC");
    expect(formatDateTime(new Date("2026-01-05T00:05:00.000Z"))).toBe("Jan 5, 2026, 12:05 AM UTC");
    expect(formatDate("2026-11-27T23:59:00.000Z")).toBe("Nov 27, 2026");
    expect(formatDate(new Date("2027-02-01T00:00:00.000Z"))).toBe("Feb 1, 2027");
    expect(formatDateTime(null)).toBe("");
    expect(formatDate(undefined)).toBe("");
  });
});
