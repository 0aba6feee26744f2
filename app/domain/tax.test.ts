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

describe("rounding in every currency (docs/decisions/0011-money-and-currency.md)", () => {
  const consumer = (country: string) => taxPlaceFor(null, { country, region: "" });
  it("is once on the order's net, half up, in the minor unit of the sale: the same rule for cents and pence", () => {
    // €2.50 at 19 %: 47.5 cents is 48; £2.50 at 20 %: 50 pence exactly; $2.50 at 6 %: 15 cents.
    expect(taxLinesFor(null, 250, consumer("DE"))[0]).toMatchObject({ rate: 19, amountCents: 48 });
    expect(taxLinesFor(null, 250, consumer("FR"))[0]).toMatchObject({ rate: 20, amountCents: 50 });
    expect(taxOn(250, 6)).toBe(15);
    // Half a minor unit down is kept: €0.02 at 19 % is 0.38 of a cent.
    expect(taxOn(2, 19)).toBe(0);
  });
  it("never sums rounded lines: three lines of €0.33 at 19 % carry 19 cents of VAT, not 3 × 6", () => {
    const net = 33 + 33 + 33;
    expect(taxLinesFor(null, net, consumer("DE"))[0].amountCents).toBe(19);
    expect(3 * taxOn(33, 19)).toBe(18);
  });
  it("keeps large sums exact: €9,999,999.99 at 19 % is €1,899,999.998, written €1,900,000.00", () => {
    expect(taxOn(999_999_999, 19)).toBe(190_000_000);
    expect(Number.isSafeInteger(taxOn(999_999_999, 19))).toBe(true);
  });
});
