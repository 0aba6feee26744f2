import { z } from "zod";
import { describe, expect, test } from "vitest";
import {
  bodyHasTooManyFields,
  boundedQuery,
  FORM_LIMITS,
  formBeyondBounds,
  isBoundedName,
  onlySchemaFields,
  schemaFieldNames,
} from "./form-bounds";

const form = (entries: [string, string][]) => {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
};

describe("the forms' bounds", () => {
  test("a form of 200 lines with two fields each passes; a 201st line is refused", () => {
    const lines = Array.from({ length: 200 }, (_, i): [string, string][] => [
      [`lines[${i}].quantity`, "1"],
      [`lines[${i}].condition`, "restock"],
    ]).flat();
    expect(formBeyondBounds(form([["intent", "receive"], ...lines]))).toBeNull();
    expect(formBeyondBounds(form([...lines, ["lines[200].quantity", "1"]]))?.status).toBe(400);
  });

  test("more fields than any form is a 413, whatever their names", () => {
    const many = Array.from({ length: FORM_LIMITS.fields + 1 }, (_, i): [string, string] => [`f${i}`, ""]);
    expect(formBeyondBounds(new URLSearchParams(many))?.status).toBe(413);
  });

  test("a body's fields are counted on its bytes, URL-encoded or multipart", () => {
    const urlEncoded = (count: number) =>
      new TextEncoder().encode(Array.from({ length: count }, (_, i) => `f${i}=`).join("&"));
    const type = "application/x-www-form-urlencoded";
    expect(bodyHasTooManyFields(urlEncoded(FORM_LIMITS.fields), type)).toBe(false);
    expect(bodyHasTooManyFields(urlEncoded(FORM_LIMITS.fields + 1), type)).toBe(true);
    const multipart = (count: number) =>
      new TextEncoder().encode(
        Array.from(
          { length: count },
          (_, i) => `--XyZ\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\n1\r\n`,
        ).join("") + "--XyZ--\r\n",
      );
    const multipartType = 'multipart/form-data; boundary="XyZ"';
    expect(bodyHasTooManyFields(multipart(FORM_LIMITS.fields), multipartType)).toBe(false);
    expect(bodyHasTooManyFields(multipart(FORM_LIMITS.fields + 1), multipartType)).toBe(true);
  });

  test.each([
    ["x[5000000]", false],
    ["lines[400000].quantity", false],
    ["scopes[100000]", false],
    ["a.b.c.d.e", false],
    ["lines[]", false],
    ["a..b", false],
    ["lines]]", false],
    ["__proto__.polluted", false],
    ["constructor", false],
    ["n".repeat(FORM_LIMITS.nameLength + 1), false],
    ["", false],
    ["lines[199].quantity", true],
    ["billing.line1", true],
    ["delivery.postalCode", true],
    ["scopes[0]", true],
    ["intent", true],
  ])("the name %s is %s", (name, bounded) => {
    expect(isBoundedName(name)).toBe(bounded);
  });

  test("Conform's intent is small JSON with an index in bounds", () => {
    const intent = (index: number) => JSON.stringify({ type: "insert", payload: { name: "lines", index } });
    expect(formBeyondBounds(form([["__intent__", intent(3)]]))).toBeNull();
    expect(formBeyondBounds(form([["__intent__", intent(5_000_000)]]))?.status).toBe(400);
    expect(formBeyondBounds(form([["__intent__", "{nope"]]))?.status).toBe(400);
    expect(formBeyondBounds(form([["__state__", JSON.stringify({ s: "x".repeat(5000) })]]))?.status).toBe(400);
  });
});

describe("a query string", () => {
  test("keeps the names a form could have and drops the rest, as unknown parameters", () => {
    const query = new URLSearchParams("q=pads&x[5000000]=1&category[$ne]=x&__intent__=%7B&page=2");
    expect([...boundedQuery(query).keys()]).toEqual(["q", "page"]);
  });
});

describe("a schema's own fields", () => {
  const address = z.object({ line1: z.string(), city: z.string() });
  const schema = z.union([
    z.discriminatedUnion("intent", [
      z.object({ intent: z.literal("save"), billing: address, note: z.string().optional() }),
      z.object({ intent: z.literal("keep") }),
    ]),
    z.object({ intent: z.literal("remove"), id: z.string() }).refine(Boolean),
  ]);

  test("are read through unions, refinements and pipes", () => {
    expect([...schemaFieldNames(schema)!].sort()).toEqual(["billing", "id", "intent", "note"]);
    expect(schemaFieldNames(z.string().pipe(z.string()))).toBeNull();
    expect(schemaFieldNames(z.object({}).passthrough())).toBeNull();
  });

  test("are all a reply can carry back: unknown fields are left out before parsing", () => {
    const sent = form([
      ["intent", "save"],
      ["billing.line1", "1 Main St"],
      ["evil", "x".repeat(1000)],
      ["evil2.deep", "y"],
    ]);
    expect([...onlySchemaFields(sent, schema).keys()]).toEqual(["intent", "billing.line1"]);
    expect([...onlySchemaFields(new URLSearchParams("q=pads&utm=x"), z.object({ q: z.string() })).keys()]).toEqual([
      "q",
    ]);
  });
});
