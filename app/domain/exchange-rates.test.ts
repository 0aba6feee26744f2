import { describe, expect, test } from "vitest";
import { formatEuroCents } from "~/format";
import { formatRate, parseRate, toEuroCents } from "./exchange-rates";

describe("ECB rates as the shop keeps them", () => {
  test("a rate is a positive decimal with at most 6 decimals, kept as millionths", () => {
    expect(parseRate("1.0921")).toBe(1_092_100);
    expect(parseRate(" 19332.71 ")).toBe(19_332_710_000);
    expect(parseRate("0.000001")).toBe(1);
    for (const bad of ["0", "0.000000", "1.1234567", "1,09", "-1.1", "1e3", "", ".5", "Infinity", "0x10"]) {
      expect(parseRate(bad), bad).toBeNull();
    }
  });
  test("a rate is written as the ECB writes it", () => {
    expect(formatRate(1_092_100)).toBe("1.0921");
    expect(formatRate(1_160_000)).toBe("1.16");
    expect(formatRate(19_332_710_000)).toBe("19332.71");
    expect(formatRate(1)).toBe("0.000001");
  });
});

describe("VAT in euros (BT-111)", () => {
  test("cents ÷ rate, rounded half away from zero to the euro cent", () => {
    // 1 EUR = 0.8: 2 cents are 2.5 euro cents exactly, 1 cent is 1.25.
    expect(toEuroCents(2, 800_000)).toBe(3);
    expect(toEuroCents(1, 800_000)).toBe(1);
    expect(toEuroCents(-2, 800_000)).toBe(-3);
    expect(toEuroCents(0, 1_159_800)).toBe(0);
    // $1,521.99 at 1.1598 is €1,312.2866…
    expect(toEuroCents(152_199, 1_159_800)).toBe(131_229);
    expect(toEuroCents(115, 1_150_000)).toBe(100);
  });
  test("large sums stay exact where floats would not", () => {
    expect(toEuroCents(Number.MAX_SAFE_INTEGER, 1_159_800)).toBe(7_766_165_937_869_452);
    expect(toEuroCents(1_234_567_890, 19_332_710_000)).toBe(63_859);
    expect(() => toEuroCents(1.5, 1_000_000)).toThrow(RangeError);
    expect(() => toEuroCents(100, 0)).toThrow(RangeError);
  });
  test("euros as people read them", () => {
    expect(formatEuroCents(131_229)).toBe("€1,312.29");
  });
});
