import { describe, expect, test } from "vitest";
import { leitwegCheckDigits, leitwegIdField, mayHoldLeitwegId } from "./leitweg";

const parse = (value: string) => leitwegIdField.safeParse(value);
const message = (value: string) => {
  const result = parse(value);
  return result.success ? null : result.error.issues.map((issue) => issue.message).join("; ");
};

describe("Leitweg-IDs", () => {
  test("KoSIT's examples pass: coarse address, fine address, check digits (ISO 7064 MOD 97-10, letters from A = 10)", () => {
    // The format specification's worked example: 04011000123451234500 mod 97 = 92, 98 - 92 = 06.
    expect(leitwegCheckDigits("04011000-1234512345")).toBe("06");
    expect(parse("04011000-1234512345-06")).toMatchObject({ success: true, data: "04011000-1234512345-06" });
    // A fine address with letters, typed in lower case with spaces: stored upper case, without them.
    expect(parse(" 991-33333test-33 ")).toMatchObject({ success: true, data: "991-33333TEST-33" });
    // No fine address: coarse address and check digits only.
    expect(parse(`04011000-${leitwegCheckDigits("04011000")}`).success).toBe(true);
  });

  test("a wrong check digit is refused, saying so", () => {
    expect(message("04011000-1234512345-07")).toMatch(/check digits of that Leitweg-ID are wrong .*06/);
    expect(message("991-33333TEST-34")).toMatch(/check digits/);
    // Two digits swapped: MOD 97-10 catches it.
    expect(message("04011000-1234512354-06")).toMatch(/check digits/);
  });

  test("the wrong shape, or nothing, is refused with the format in words", () => {
    for (const bad of [
      "1-12345-06",
      "1234567890123-06",
      "04011000-1234512345-6",
      "04011000_12345-06",
      "04011000-12345-",
    ])
      expect(message(bad), bad).toMatch(/coarse address of 2 to 12 digits/);
    expect(message(`04011000-${"A".repeat(31)}-00`)).toMatch(/up to 30 letters and digits/);
    expect(message("   ")).toBe("Enter the Leitweg-ID");
  });

  test("only a German company holds one", () => {
    expect(mayHoldLeitwegId("DE")).toBe(true);
    expect(mayHoldLeitwegId("AT")).toBe(false);
    expect(mayHoldLeitwegId("")).toBe(false);
  });
});
