import { describe, expect, test } from "vitest";
import { formatDate, formatDateTime, formatQuantity, formatUnits } from "~/format";

describe("quantities and dates, written one way", () => {
  test("quantities with thousands separators, and with their unit", () => {
    expect(formatQuantity(300)).toBe("300");
    expect(formatQuantity(12500)).toBe("12,500");
    expect(formatUnits(1)).toBe("1 unit");
    expect(formatUnits(1200)).toBe("1,200 units");
  });
  test("a time always says its time zone; a day has no time", () => {
    expect(formatDateTime("2026-11-27T14:48:00.000Z")).toBe("Nov 27, 2026, 2:48 PM UTC");
    expect(formatDate("2026-11-27T23:59:00.000Z")).toBe("Nov 27, 2026");
    expect(formatDateTime(null)).toBe("");
  });
});
