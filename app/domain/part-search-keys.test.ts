import { describe, expect, it } from "vitest";
import { catalogueKeys, SEARCH_KEYS_VERSION } from "./part-search-keys";

const plugs = catalogueKeys({
  partNumber: "PW-1003",
  name: "Iridium Spark Plug",
  brand: "PartsWorks",
  category: "ignition",
  oeNumbers: ["90919-01253", "90919 01253", ""],
  fitment: [{ make: "Toyota", model: "Corolla", yearFrom: 2014, yearTo: 2019 }],
});

describe("a part's search keys", () => {
  it("key the part number and its OE numbers without dashes, spaces or repeats", () => {
    expect(plugs.partNumberKey).toBe("PW1003");
    expect(plugs.oeKeys).toEqual(["9091901253"]);
  });
  it("hold the words of the name, brand and category, and the name's words run together", () => {
    expect(plugs.words).toEqual(expect.arrayContaining(["iridium", "spark", "plug", "partsworks", "sparkplug"]));
  });
  it("key the vehicles the part fits", () => {
    expect(plugs.vehicleKeys.join(" ")).toMatch(/toyota/i);
    expect(plugs.vehicleKeys.join(" ")).toMatch(/corolla/i);
  });
  it("carry the version they were made with", () => {
    expect(plugs.searchKeysVersion).toBe(SEARCH_KEYS_VERSION);
  });
  it("are the same for the same fields", () => {
    expect(
      catalogueKeys({ partNumber: "PW-1003", name: "Iridium Spark Plug", brand: "PartsWorks", category: "ignition" })
        .terms,
    ).toEqual(
      catalogueKeys({ partNumber: "PW-1003", name: "Iridium Spark Plug", brand: "PartsWorks", category: "ignition" })
        .terms,
    );
  });
  it("give a part without brand or category the defaults' words", () => {
    const keys = catalogueKeys({ partNumber: "X-1", name: "Gasket" });
    expect(keys.words).toContain("gasket");
    expect(keys.oeKeys).toEqual([]);
    expect(keys.vehicleKeys).toEqual([]);
  });
});
