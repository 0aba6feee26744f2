import { describe, expect, test } from "vitest";
import { peppolIdSchema } from "./peppol";

const parse = (scheme: string, id: string) => peppolIdSchema.safeParse({ scheme, id });
const message = (scheme: string, id: string) => {
  const result = parse(scheme, id);
  return result.success ? null : result.error.issues.map((issue) => issue.message).join("; ");
};

describe("Peppol participant ids", () => {
  test("each scheme's rule: a GLN's check digit, a VAT number's shape, a Belgian number's modulo 97", () => {
    expect(parse("0088", "5790000435975").success).toBe(true);
    expect(message("0088", "5790000435976")).toMatch(/not a valid GLN/);
    expect(parse("9930", "de 811 907 980")).toMatchObject({ success: true, data: { id: "DE811907980" } });
    expect(message("9930", "DE81190798")).toMatch(/not a valid German VAT number, such as DE123456789/);
    expect(parse("9944", "NL859324710B01").success).toBe(true);
    expect(parse("0208", "0123456749").success).toBe(true);
    expect(message("0208", "0123456748")).toMatch(/Belgian enterprise number/);
  });

  test("a scheme off the list, or no value, is refused with a message", () => {
    expect(message("EM", "buyer@example.com")).toBe("Choose the identifier's scheme");
    expect(message("9930", "  ")).toBe("Enter the identifier");
  });
});
