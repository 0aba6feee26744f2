import { describe, expect, it } from "vitest";
import { formatAddress, parseLegacyAddress, postalAddressSchema } from "./address";

const detroit = {
  name: "",
  company: "Test Garage",
  line1: "12 Gear Lane",
  line2: "",
  city: "Detroit",
  region: "MI",
  postalCode: "48209",
  country: "US",
};

describe("a postal address", () => {
  it("takes a complete US address", () => {
    expect(postalAddressSchema.safeParse(detroit).success).toBe(true);
  });
  it.each([
    [{ country: "" }, "country"],
    [{ region: "BY" }, "region"],
    [{ region: "" }, "region"],
    [{ postalCode: "4820" }, "postalCode"],
    [{ country: "GB", region: "", postalCode: "48209" }, "postalCode"],
    [{ line1: "x".repeat(2000) }, "line1"],
    [{ line1: "12 Gear\u0000Lane" }, "line1"],
    [{ city: "Detroit\nMI" }, "city"],
    [{ region: "OR", postalCode: "48243" }, "postalCode"],
    [{ country: "CA", region: "QC", postalCode: "M5V 2T6" }, "postalCode"],
    [{ country: "AU", region: "VIC", postalCode: "2000" }, "postalCode"],
  ])("refuses %o at %s", (change, field) => {
    const parsed = postalAddressSchema.safeParse({ ...detroit, ...change });
    expect(parsed.success).toBe(false);
    if (!parsed.success) expect(parsed.error.issues.map((issue) => issue.path.join("."))).toContain(field);
  });
  it("prints its lines without the empty ones", () => {
    expect(formatAddress(detroit)).not.toMatch(/\n\n/);
    expect(formatAddress(detroit)).toContain("12 Gear Lane");
  });
});

describe("a free-text address read into fields", () => {
  it("is certain for street lines and City, ST ZIP", () => {
    expect(parseLegacyAddress("12 Gear Lane\nDetroit, MI 48209\nUSA")).toEqual({
      address: { ...detroit, company: "" },
      certain: true,
    });
  });
  it.each([
    "12 Gear Lane\nDock door OR 97201\nDetroit, MI 48209",
    "Northside Yard 2\nbehind the Toledo depot, Ohio",
    "Hafenstraße 12\n20457 Hamburg\nGermany",
    "Detroit, ZZ 48209",
    "1 Renaissance Center\nDetroit, OR 48243",
    "",
  ])("is not certain for %j, and keeps its first lines", (text) => {
    const read = parseLegacyAddress(text);
    expect(read.certain).toBe(false);
    expect(read.address.country).toBe("");
  });
});

describe("address lines are plain text", () => {
  it.each([
    ["a bidi override", "1 Main St\u202e"],
    ["a zero-width space", "1 Main\u200b St"],
    ["an escape", "1 Main St\u001b[31m"],
  ])("%s is refused at the line", (_, line1) => {
    const parsed = postalAddressSchema.safeParse({ ...detroit, line1 });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.message)).toContain(
      "Street address cannot contain line breaks, control characters or invisible formatting characters",
    );
  });
});
