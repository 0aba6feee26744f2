import { describe, expect, test } from "vitest";
import { auditFieldLabel, formatAuditValue } from "./audit-actions";

describe("the audit log in people's words", () => {
  test("fields by the names people say", () => {
    expect(auditFieldLabel("priceCents")).toBe("Price");
    expect(auditFieldLabel("availableQuantity")).toBe("Stock");
    expect(auditFieldLabel("minOrderQuantity")).toBe("Minimum order");
    expect(auditFieldLabel("amountCents")).toBe("Amount");
    // A field without a label of its own is still put in words, never shown by its code name.
    expect(auditFieldLabel("somethingNew")).toBe("Something new");
    expect(auditFieldLabel("unpaidValueCents")).toBe("Unpaid value");
  });
  test("values formatted: money as money, counts grouped, codes as words", () => {
    expect(formatAuditValue("priceCents", 3700)).toBe("$37.00");
    expect(formatAuditValue("priceCents", 2450)).toBe("$24.50");
    expect(formatAuditValue("availableQuantity", 12500)).toBe("12,500");
    expect(formatAuditValue("role", "admin")).toBe("Admin");
    expect(formatAuditValue("category", "filters")).toBe("Filters");
    expect(formatAuditValue("lowStockThreshold", null)).toBe("Below the minimum order");
    expect(formatAuditValue("brand", "")).toBe("None");
  });
});
