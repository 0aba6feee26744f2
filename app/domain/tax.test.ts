import { describe, expect, it } from "vitest";
import { invoicedOnShipping, placeWords, taxLinesFor, taxOn, taxPlaceFor, taxTotal, type TaxProfile } from "./tax";

const us = (state: string | null, exemptionCertificate: string | null = null): TaxProfile => ({
  country: "US",
  state,
  vatNumber: null,
  exemptionCertificate,
});
const eu = (country: string, vatNumber: string | null): TaxProfile => ({
  country,
  state: null,
  vatNumber,
  exemptionCertificate: null,
});
const to = (country: string, region = "") => taxPlaceFor(null, { country, region });

describe("where an order is taxed", () => {
  it("is the delivery address's country and, in the US, its state", () => {
    expect(to("US", "oh")).toEqual({ country: "US", state: "OH", from: "address" });
    expect(to("DE", "BY")).toEqual({ country: "DE", state: null, from: "address" });
  });
  it("is the delivery address even when the buyer's own details name another place", () => {
    expect(taxPlaceFor(eu("CH", null), { country: "US", region: "MI" })).toMatchObject({ country: "US", state: "MI" });
  });
  it("falls back on what an admin recorded, then on the seller's own state", () => {
    expect(taxPlaceFor(us("OH"), null)).toEqual({ country: "US", state: "OH", from: "account" });
    expect(taxPlaceFor(null, null)).toMatchObject({ country: "US", from: "seller" });
  });
  it("is named in words", () => {
    expect(placeWords({ country: "US", state: "OH" })).toMatch(/^OH, /);
    expect(placeWords({ country: "DE", state: null })).toBe("Germany");
  });
});

describe("the tax lines of an order", () => {
  it.each([
    ["MI", 6, 60_000],
    ["OH", 5.75, 57_500],
  ])("a delivery to %s pays its sales tax of %f %%", (state, rate, cents) => {
    const [line] = taxLinesFor(null, 1_000_000, to("US", state));
    expect(line).toMatchObject({ kind: "sales-tax", rate, amountCents: cents, note: null });
  });
  it("a US state without sales tax (Oregon) collects none, and says why", () => {
    const [line] = taxLinesFor(null, 100_000, to("US", "OR"));
    expect(line).toMatchObject({ kind: "not-collected", amountCents: 0 });
    expect(line.note).toBeTruthy();
  });
  it("a certificate on file exempts a US buyer", () => {
    expect(taxLinesFor(us("MI", "RS-1234"), 100_000, to("US", "MI"))[0]).toMatchObject({
      kind: "exempt",
      amountCents: 0,
    });
  });
  it("goods to an EU business with a valid VAT number in another member state are an intra-community supply", () => {
    const lines = taxLinesFor(eu("DE", "DE811907980"), 100_000, to("DE"));
    expect(lines[0]).toMatchObject({ kind: "intra-community", amountCents: 0 });
    expect(lines[0].note).toMatch(/Article 138/);
    // Invoiced when the goods ship (the day of the supply); every other order when paid or confirmed.
    expect(invoicedOnShipping(lines)).toBe(true);
    expect(invoicedOnShipping(taxLinesFor(eu("DE", "DE123"), 100_000, to("DE")))).toBe(false);
  });
  it("an EU buyer without a valid VAT number pays the VAT of the delivery country", () => {
    expect(taxLinesFor(eu("DE", "DE123"), 100_000, to("DE"))[0]).toMatchObject({
      kind: "vat",
      rate: 19,
      amountCents: 19_000,
    });
    expect(taxLinesFor(null, 100_000, to("DE"))[0]).toMatchObject({ kind: "vat", rate: 19 });
  });
  it("a business in the seller's own EU country pays VAT there", () => {
    expect(taxLinesFor(eu("NL", "NL123456789B01"), 100_000, to("NL"))[0]).toMatchObject({ kind: "vat", rate: 21 });
  });
  it.each(["CH", "MX", "JP"])("a delivery to %s is an export", (country) => {
    expect(taxLinesFor(null, 100_000, to(country))[0]).toMatchObject({ kind: "export", amountCents: 0 });
  });
  it("rounds once per order, half up, and adds up", () => {
    expect(taxOn(1, 6)).toBe(0);
    expect(taxOn(9, 5.75)).toBe(1);
    expect(taxOn(724_880, 6)).toBe(43_493);
    expect(taxTotal(taxLinesFor(null, 724_880, to("US", "MI")))).toBe(43_493);
  });
});
