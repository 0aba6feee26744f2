import { describe, expect, test } from "vitest";
import { partSearchWords, searchTerms } from "./catalogue";
import { catalogueKeys } from "./part-search-keys";
import {
  deletions,
  editDistance,
  fuzzyKeys,
  fuzzyQueryKeys,
  nearestWords,
  partNumberList,
  queryClauses,
  stemVariants,
} from "./search-text";

/** Whether a part with these keys meets every clause of the typed text (what the database tests). */
function finds(
  typed: string,
  part: { name: string; partNumber?: string; brand?: string },
  corrections: Record<string, string[]> | null = null,
) {
  const keys = new Set(catalogueKeys({ partNumber: part.partNumber ?? "XX-1", ...part }).terms);
  return queryClauses(typed, { corrections }).every((clause) => clause.terms.some((term) => keys.has(term)));
}

describe("stems", () => {
  test("plurals and endings come off; a stem only needs to start the catalogue's word", () => {
    expect(stemVariants("pads")).toContain("pad");
    expect(stemVariants("plugs")).toContain("plug");
    expect(stemVariants("batteries")).toContain("battery");
    expect(stemVariants("battery")).toContain("batteri");
    expect(stemVariants("boxes")).toContain("box");
    expect(stemVariants("fitted")).toContain("fit");
    expect(stemVariants("glass")).toEqual(["glass"]);
    expect(stemVariants("h7")).toEqual(["h7"]);
    // Too short to stem: "gas" is not "ga".
    expect(stemVariants("gas")).toEqual(["gas"]);
  });
});

describe("edit distance", () => {
  test("counts a swap of neighbours as one error", () => {
    expect(editDistance("radaitor", "radiator")).toBe(1);
    expect(editDistance("filtr", "filter")).toBe(1);
    expect(editDistance("brake", "brake")).toBe(0);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("abcdef", "uvwxyz", 2)).toBe(3);
  });

  test("deletions list the word and what is left with letters taken out", () => {
    expect(deletions("abc", 1).sort()).toEqual(["ab", "abc", "ac", "bc"]);
    expect(deletions("abcd", 2)).toContain("ad");
  });

  test("deletion keys: a typed word shares one with the catalogue's word one error away, none with a far one", () => {
    const stored = new Set(fuzzyKeys(["radiator", "filter", "plug"]));
    const shares = (typed: string) => fuzzyQueryKeys(typed).some((key) => stored.has(key));
    expect(shares("radaitor")).toBe(true);
    expect(shares("filtr")).toBe(true);
    expect(shares("fliter")).toBe(true);
    expect(shares("radiatorr")).toBe(true);
    expect(shares("plugg")).toBe(true);
    // Short words are never guessed at; words far off match nothing.
    expect(fuzzyQueryKeys("plgu")).toEqual([]);
    expect(shares("wiper")).toBe(false);
  });
});

describe("typed text against a part's keys", () => {
  const plug = { name: "Iridium Spark Plug", brand: "Sparkwell" };
  const pump = { name: "Water Pump Assembly" };
  const table: [string, { name: string; brand?: string }, boolean][] = [
    ["spark plugs", plug, true],
    ["sparkplug", plug, true],
    ["sparkplugs", plug, true],
    ["plug", plug, true],
    ["water pump", pump, true],
    ["waterpump", pump, true],
    ["water pumps", pump, true],
    ["brake pads", { name: "Ceramic Brake Pad Set" }, true],
    ["break pads", { name: "Ceramic Brake Pad Set" }, true],
    ["pads", { name: "Ceramic Brake Pad Set" }, true],
    ["headlamp", { name: "LED Headlight Bulb H7" }, true],
    ["headlights", { name: "Headlamp Unit" }, true],
    ["shocks", { name: "Front Shock Absorber" }, true],
    ["shock absorbers", { name: "Rear Shocks" }, true],
    ["aluminum radiator", { name: "Radiator Core, Aluminium" }, true],
    ["tires", { name: "Winter Tyre" }, true],
    ["spark plugs", pump, false],
    ["filtr", { name: "Oil Filter Cartridge" }, false],
  ];
  test.each(table)("%s finds %o: %s", (typed, part, expected) => {
    expect(finds(typed, part)).toBe(expected);
  });

  test("a mistyped word finds its part through the corrections looked up for it (the second read)", () => {
    expect(finds("oil filtr", { name: "Oil Filter Cartridge" }, { filtr: ["filter"] })).toBe(true);
    expect(finds("radaitor", { name: "Radiator Core, Aluminium" }, { radaitor: ["radiator"] })).toBe(true);
    expect(finds("radaitor", { name: "Water Pump Assembly" }, { radaitor: ["radiator"] })).toBe(false);
  });

  test("a part stores its neighbouring words run together, as words and their prefixes", () => {
    const words = partSearchWords("Iridium Spark Plug", []);
    const keys = catalogueKeys({ partNumber: "PW-1005", name: "Iridium Spark Plug" });
    expect(keys.words).toEqual(expect.arrayContaining([...words, "sparkplug", "iridiumspark"]));
    expect(keys.terms).toEqual(expect.arrayContaining(searchTerms(["sparkplug"])));
  });
});

describe("part numbers at once", () => {
  test("spaces, commas and new lines separate; a letter prefix joins its digits", () => {
    expect(partNumberList("PW1003 PW1005")).toEqual(["PW1003", "PW1005"]);
    expect(partNumberList("pw-1003, PW-1005\nPW 1007")).toEqual(["pw-1003", "PW-1005", "PW1007"]);
    expect(partNumberList("PW 1003 PW 1005")).toEqual(["PW1003", "PW1005"]);
  });

  test("one number, or words among them, is not a list", () => {
    expect(partNumberList("PW-1003")).toBeNull();
    expect(partNumberList("brake pads")).toBeNull();
    expect(partNumberList("oil filter 1003")).toBeNull();
  });
});

describe("did you mean", () => {
  test("the nearest words first, then the most common", () => {
    const counts = new Map([
      ["filter", 10],
      ["fitter", 1],
      ["radiator", 3],
    ]);
    expect(nearestWords("filtre", counts)).toEqual(["filter", "fitter"]);
    expect(nearestWords("zzzzzz", counts)).toEqual([]);
  });
});

describe("numbers with their units, and the trade's other names", () => {
  test.each([
    ["10mm socket", "Socket 10 mm"],
    ["10 mm socket", "Socket 10mm"],
    ["40a fuse", "Blade fuse 40 A"],
    ["12v bulb", "H7 bulb 12 V 55 W"],
    ["55w h7", "H7 bulb 12V 55W"],
    ["2.5mm cable", "Cable 2.5 mm"],
  ])("%s finds %s", (typed, name) => {
    expect(finds(typed, { name })).toBe(true);
  });

  test("a number joined to its unit is still that number: 10mm does not find 12 mm", () => {
    expect(finds("10mm socket", { name: "Socket 12 mm" })).toBe(false);
    expect(finds("40a fuse", { name: "Blade fuse 30 A" })).toBe(false);
  });

  test("the start of a part number that ends like a unit still finds the part: NM 8947A finds NM-8947ADF-7", () => {
    expect(finds("NM 8947A", { name: "Caliper", partNumber: "NM-8947ADF-7" })).toBe(true);
    expect(finds("NM 8947A", { name: "Caliper", partNumber: "NM-8948ADF-7" })).toBe(false);
  });

  test.each([
    ["anti-roll bar", "Stabilizer bar link"],
    ["track rod end", "Tie rod end outer"],
    ["fan belt", "Serpentine belt 6PK"],
    ["wishbone", "Control arm front left"],
    ["indicator bulb", "Turn signal bulb PY21W"],
    ["sump gasket", "Oil pan gasket"],
    ["handbrake cable", "Parking brake cable"],
  ])("the British or trade name %s finds %s", (typed, name) => {
    expect(finds(typed, { name })).toBe(true);
  });
});
