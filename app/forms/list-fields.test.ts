import { describe, expect, test } from "vitest";
import { isMalformedList, MALFORMED_LIST, refuseMalformedList } from "./list-fields";

const form = (entries: [string, string][]) => {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
};

describe("a form's list of line rows", () => {
  test("rows by place, with their own fields, are a list; a form without the list is too", () => {
    const rows = form([
      ["lines[0].quantity", "5"],
      ["lines[1].quantity", "0"],
      ["reason", "damaged"],
      ["linesNote", "x"],
    ]);
    expect(isMalformedList(rows, "lines", ["quantity"])).toBe(false);
    expect(isMalformedList(form([["intent", "approve"]]), "lines", ["quantity"])).toBe(false);
    expect(() => refuseMalformedList(rows, "lines", ["quantity"])).not.toThrow();
  });

  test("a scalar, an object, a bare row, an unknown field or a row's field twice is not", () => {
    const malformed: [string, string][][] = [
      [["lines", "5"]],
      [["lines", ""]],
      [["lines.quantity", "5"]],
      [["lines[0]", "5"]],
      [["lines[]", "5"]],
      [["lines[0].quantity.value", "5"]],
      [["lines[0].price", "5"]],
      [
        ["lines[0].quantity", "60"],
        ["lines[0].quantity", "60"],
      ],
    ];
    for (const entries of malformed) {
      expect(isMalformedList(form(entries), "lines", ["quantity"]), JSON.stringify(entries)).toBe(true);
      expect(isMalformedList(new URLSearchParams(entries), "lines", ["quantity"])).toBe(true);
    }
  });

  test("refused with a 400 that says what to do", async () => {
    let thrown: unknown;
    try {
      refuseMalformedList(form([["lines", "5"]]), "lines", ["quantity"]);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(400);
    expect(await (thrown as Response).text()).toBe(MALFORMED_LIST);
  });
});
