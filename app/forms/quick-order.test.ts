import { describe, expect, it } from "vitest";
import { parsePad, quickOrderSchema } from "./quick-order";

const entries = (text: string) => parsePad(text).map(({ partNumber, quantityText }) => [partNumber, quantityText]);

describe("the quick-order pad", () => {
  it.each([
    ["PW-1003 200", [["PW-1003", "200"]]],
    ["PW-1003\t200", [["PW-1003", "200"]]],
    ["PW-1003,200", [["PW-1003", "200"]]],
    ["PW-1003; 200", [["PW-1003", "200"]]],
    ["PW 1003, 200", [["PW 1003", "200"]]],
    ["PW 1003 200", [["PW 1003", "200"]]],
    ["PW-1003", [["PW-1003", ""]]],
    ["PW-1003 two hundred", [["PW-1003", "two hundred"]]],
    ["PW-1003 1.5", [["PW-1003", "1.5"]]],
    [
      "\n\n  \nPW-1003 1\r\nPW-1005 2\r",
      [
        ["PW-1003", "1"],
        ["PW-1005", "2"],
      ],
    ],
  ])("reads %j", (text, expected) => {
    expect(entries(text)).toEqual(expected);
  });
  it("keeps the line number of each entry, counting blank lines", () => {
    expect(parsePad("\nPW-1003 1\n\nPW-1005 2").map((entry) => entry.lineNumber)).toEqual([2, 4]);
  });
  it("cuts a pasted giant down to 40 characters a field", () => {
    const [entry] = parsePad(`${"X".repeat(500)}\t${"9".repeat(500)}`);
    expect(entry.partNumber).toHaveLength(40);
    expect(entry.quantityText).toHaveLength(40);
  });
  it.each([
    [{ intent: "check", lines: "" }, "at least one line"],
    [{ intent: "check", lines: " \n\n " }, "at least one line"],
    [{ intent: "check", lines: Array.from({ length: 201 }, (_, i) => `P-${i} 1`).join("\n") }, "At most 200 lines"],
    [{ intent: "check", lines: "x".repeat(20_001) }, "Paste at most 200 lines"],
    [{ intent: "delete", lines: "PW-1003 1" }, "Choose check, add to cart or order"],
  ])("refuses %#: %s", (form, message) => {
    const parsed = quickOrderSchema.safeParse(form);
    expect(parsed.success).toBe(false);
    if (!parsed.success) expect(parsed.error.issues.map((issue) => issue.message).join(" ")).toContain(message);
  });
  it("takes a check of 200 lines", () => {
    const lines = Array.from({ length: 200 }, (_, i) => `P-${i} 1`).join("\n");
    expect(quickOrderSchema.safeParse({ intent: "check", lines }).success).toBe(true);
  });
});
