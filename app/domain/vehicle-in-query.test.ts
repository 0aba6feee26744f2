import { describe, expect, test } from "vitest";
import { vehicleInQuery, vehicleInQueryLabel } from "./vehicle-in-query";

describe("a vehicle named in a search", () => {
  test("a make, a model or both, with the rest of the text", () => {
    expect(vehicleInQuery("toyota")).toEqual({ make: "Toyota", model: null, year: null, rest: "" });
    expect(vehicleInQuery("Toyota Corolla brake pads")).toEqual({
      make: "Toyota",
      model: "Corolla",
      year: null,
      rest: "brake pads",
    });
    expect(vehicleInQuery("golf wipers")).toMatchObject({ make: "Volkswagen", model: "Golf", rest: "wipers" });
    expect(vehicleInQuery("vw golf 2015 pads")).toMatchObject({ make: "Volkswagen", model: "Golf", year: 2015 });
    expect(vehicleInQuery("citroen c3")).toMatchObject({ make: "Citroën", model: "C3" });
    expect(vehicleInQuery("mercedes-benz c-class")).toMatchObject({ make: "Mercedes-Benz", model: "C-Class" });
  });

  test("a year the model was not built in stays in the text", () => {
    expect(vehicleInQuery("golf 1950")).toMatchObject({ year: null, rest: "1950" });
  });

  test("short or shared model names need their make; plain words are not vehicles", () => {
    expect(vehicleInQuery("500")).toBeNull();
    expect(vehicleInQuery("a3 filter")).toBeNull();
    expect(vehicleInQuery("audi a3 filter")).toMatchObject({ make: "Audi", model: "A3", rest: "filter" });
    expect(vehicleInQuery("brake pads")).toBeNull();
    expect(vehicleInQuery("")).toBeNull();
  });

  test("the label names what was understood", () => {
    expect(vehicleInQueryLabel({ make: "Toyota", model: "Corolla", year: null })).toBe("Toyota Corolla");
    expect(vehicleInQueryLabel({ make: "Volkswagen", model: "Golf", year: 2015 })).toBe("2015 Volkswagen Golf");
  });
});
