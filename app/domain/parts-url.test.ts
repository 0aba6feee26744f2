import { describe, expect, test } from "vitest";
import { EMPTY_PARTS_STATE, isNarrowed, partsHref, partsParams, type PartsState } from "./parts-url";

const state = (changes: Partial<PartsState>): PartsState => ({ ...EMPTY_PARTS_STATE, ...changes });

describe("the /parts address", () => {
  test("an empty search is /parts itself, and narrows nothing", () => {
    expect(partsHref(EMPTY_PARTS_STATE)).toBe("/parts");
    expect(isNarrowed(EMPTY_PARTS_STATE)).toBe(false);
  });

  test("parameters come in one order, whatever order the choices were made in", () => {
    const a = state({ q: "brake pad", brand: "Bosch", category: "brakes", inStock: true, sort: "price-asc" });
    expect(partsHref(a)).toBe("/parts?q=brake+pad&category=brakes&brand=Bosch&stock=in&sort=price-asc");
    expect(isNarrowed(a)).toBe(true);
  });

  test("a vehicle's model needs its make, and its year needs both", () => {
    expect(partsParams(state({ model: "Golf", year: 2015 })).toString()).toBe("");
    expect(partsParams(state({ make: "VW", year: 2015 })).toString()).toBe("make=VW");
    expect(partsParams(state({ make: "VW", model: "Golf", year: 2015 })).toString()).toBe(
      "make=VW&model=Golf&year=2015",
    );
  });

  test("changing a filter goes back to page 1 and drops the cursor; turning a page keeps the filters", () => {
    const paged = state({ q: "filter", page: 3, after: "abc" });
    expect(partsHref(paged, { brand: "Mann" })).toBe("/parts?q=filter&brand=Mann");
    expect(partsHref(paged, { page: 4, after: "def" })).toBe("/parts?q=filter&page=4&after=def");
    expect(partsHref(paged, { page: 2, before: "xyz" })).toBe("/parts?q=filter&page=2&before=xyz");
  });

  test("the canonical address has neither sort nor cursor", () => {
    const paged = state({ q: "oil", sort: "price-desc", page: 2, after: "abc" });
    expect(partsParams(paged, { forCanonical: true }).toString()).toBe("q=oil&page=2");
  });
});
