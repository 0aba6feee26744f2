import { describe, expect, it } from "vitest";
import {
  addMoney,
  currencyOf,
  CurrencyMismatch,
  majorUnits,
  money,
  subtractMoney,
  sumMoney,
  totalsByCurrency,
  type Money,
} from "./money";

describe("money with its currency", () => {
  it("adds and subtracts amounts of one currency, in whole minor units", () => {
    expect(addMoney(money(1_250, "EUR"), money(50, "EUR"))).toEqual({ amount: 1_300, currency: "EUR" });
    expect(subtractMoney(money(1_250, "GBP"), money(1_300, "GBP"))).toEqual({ amount: -50, currency: "GBP" });
    expect(sumMoney("USD", [money(1, "USD"), money(2, "USD")])).toEqual({ amount: 3, currency: "USD" });
    expect(sumMoney("USD", [])).toEqual({ amount: 0, currency: "USD" });
    expect(() => money(12.5, "USD")).toThrow(RangeError);
  });

  it("never adds two currencies: the types refuse it, and so does the code where the currency is not known", () => {
    // @ts-expect-error a euro amount added to dollars does not compile
    expect(() => addMoney(money(100, "USD"), money(100, "EUR"))).toThrow(CurrencyMismatch);
    // @ts-expect-error nor a pound amount in a dollar sum
    expect(() => sumMoney("USD", [money(1, "USD"), money(1, "GBP")])).toThrow(CurrencyMismatch);
    // Read from the database, the currency is only known at run time: the check throws.
    const stored: Money[] = [money(100, "USD"), money(100, "EUR")];
    expect(() => addMoney(stored[0], stored[1])).toThrow("Amounts in USD and EUR cannot be added");
    expect(() => subtractMoney(stored[0], stored[1])).toThrow(CurrencyMismatch);
  });

  it("totals several currencies apart, never as one figure", () => {
    const totals = totalsByCurrency([money(100, "USD"), money(250, "EUR"), money(-40, "USD")]);
    expect(totals).toEqual([
      { amount: 60, currency: "USD" },
      { amount: 250, currency: "EUR" },
    ]);
  });

  it("reads stored and sent codes, and what was kept before currencies as dollars", () => {
    expect(currencyOf("usd")).toBe("USD");
    expect(currencyOf("EUR")).toBe("EUR");
    expect(currencyOf(undefined)).toBe("USD");
    expect(() => currencyOf("XAU")).toThrow("XAU is not a currency the shop keeps");
    expect(majorUnits(money(724_880, "EUR"))).toBe("7248.80");
    expect(majorUnits(money(-5, "GBP"))).toBe("-0.05");
  });
});
