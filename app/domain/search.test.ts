import { describe, expect, test } from "vitest";
import { escapeRegExp, normalizeSearch } from "./search";

describe("escapeRegExp", () => {
  test("makes every special character literal", () => {
    const nasty = ".*+?^${}()|[]\\ ";
    const pattern = new RegExp(`^${escapeRegExp(nasty)}$`);
    expect(pattern.test(nasty)).toBe(true);
    expect(pattern.test("anything else")).toBe(false);
  });

  test("a pattern that would match everything matches only itself", () => {
    const pattern = new RegExp(escapeRegExp(".*"), "i");
    expect(pattern.test("Brake pad")).toBe(false);
    expect(pattern.test("size .* wildcard")).toBe(true);
  });

  test("a catastrophic-backtracking pattern becomes plain text", () => {
    const evil = "(a+)+$";
    const pattern = new RegExp(escapeRegExp(evil));
    const started = performance.now();
    expect(pattern.test(`${"a".repeat(30)}!`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(50);
    expect(pattern.test(`x ${evil} y`)).toBe(true);
  });

  test("leaves ordinary text alone", () => {
    expect(escapeRegExp("PW-1001 brake pad")).toBe("PW-1001 brake pad");
  });
});

describe("normalizeSearch", () => {
  test("trims and collapses whitespace", () => {
    expect(normalizeSearch("  brake \t  pad\n")).toBe("brake pad");
  });

  test("blank or missing is no search", () => {
    expect(normalizeSearch("   ")).toBeNull();
    expect(normalizeSearch("")).toBeNull();
    expect(normalizeSearch(null)).toBeNull();
    expect(normalizeSearch(undefined)).toBeNull();
  });
});
