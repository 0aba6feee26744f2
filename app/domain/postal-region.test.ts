import { describe, expect, it } from "vitest";
import {
  AU_POSTCODES,
  AU_SHARED_POSTCODES,
  CA_FIRST_LETTER,
  type PostalRange,
  US_ZIP3,
  US_ZIP5,
  US_ZIP_PLACES,
} from "~/content/postal-regions";
import { REGIONS } from "~/content/regions";
import { postalAddressSchema } from "./address";
import { postalRegionProblem, regionsOfPostalCode, usZipPlace } from "./postal-region";

const problem = (country: string, region: string, postalCode: string) =>
  postalRegionProblem({ country, region, postalCode });

describe("a US ZIP code and its state", () => {
  it.each([
    ["48243", "MI"],
    ["48209", "MI"],
    ["43604", "OH"],
    ["97201", "OR"],
    ["10001", "NY"],
    ["00501", "NY"],
    ["05501", "MA"],
    ["06390", "NY"],
    ["06101", "CT"],
    ["20001", "DC"],
    ["20500", "DC"],
    ["20147", "VA"],
    ["33101", "FL"],
    ["39901", "GA"],
    ["73301", "TX"],
    ["73102", "OK"],
    ["83414", "WY"],
    ["83702", "ID"],
    ["88510", "TX"],
    ["96813", "HI"],
    ["99501", "AK"],
    ["48243-1234", "MI"],
  ])("%s is in %s", (zip, state) => {
    expect(usZipPlace(zip)).toBe(state);
    expect(problem("US", state, zip)).toBeNull();
  });

  it("refuses a Michigan ZIP code with Oregon as the state, and says where the ZIP code is", () => {
    expect(problem("US", "OR", "48243")).toBe("48243 is a ZIP code in Michigan, not in Oregon");
    expect(problem("US", "or", "48243-0001")).toBe("48243-0001 is a ZIP code in Michigan, not in Oregon");
  });

  it("names DC, the territories and the armed forces' post offices", () => {
    expect(problem("US", "VA", "20500")).toBe("20500 is a ZIP code in the District of Columbia, not in Virginia");
    expect(problem("US", "NY", "00901")).toBe(
      "00901 is a ZIP code in Puerto Rico, not in New York: choose Puerto Rico as the country",
    );
    expect(problem("US", "FL", "00802")).toMatch(/in the U\.S\. Virgin Islands, not in Florida/);
    expect(problem("US", "HI", "96799")).toMatch(/in American Samoa, not in Hawaii: choose American Samoa/);
    expect(problem("US", "OR", "09012")).toBe("09012 is a ZIP code in Armed Forces Europe (APO/FPO), not in Oregon");
    expect(problem("US", "FL", "34001")).toMatch(/Armed Forces Americas/);
    expect(problem("US", "CA", "96201")).toMatch(/Armed Forces Pacific/);
  });

  it("takes the chosen state where the prefix is not in use", () => {
    for (const zip of ["00100", "21301", "26901", "98701", "96990"]) {
      expect(usZipPlace(zip)).toBeNull();
      expect(problem("US", "OR", zip)).toBeNull();
    }
  });

  it("holds a territory's address to its own ZIP codes", () => {
    expect(problem("PR", "", "00901")).toBeNull();
    expect(problem("GU", "", "96910")).toBeNull();
    expect(problem("MP", "", "96950")).toBeNull();
    expect(problem("PR", "", "48243")).toBe(
      "48243 is a ZIP code in Michigan, not in Puerto Rico: choose United States as the country",
    );
    expect(problem("MP", "", "96910")).toMatch(/in Guam, not in the Northern Mariana Islands: choose Guam/);
  });
});

describe("a Canadian postal code and its province", () => {
  it.each([
    ["A1C 5M2", "NL"],
    ["B3H 1A1", "NS"],
    ["C1A 4P3", "PE"],
    ["E1C 4M3", "NB"],
    ["H2X 1Y4", "QC"],
    ["G1R 4P5", "QC"],
    ["M5V 2T6", "ON"],
    ["K1A 0B1", "ON"],
    ["R3C 4T3", "MB"],
    ["S4P 3Y2", "SK"],
    ["T2P 1J9", "AB"],
    ["V6B 1A1", "BC"],
    ["X1A 2P5", "NT"],
    ["X0A 0H0", "NU"],
    ["Y1A 1B1", "YT"],
  ])("%s is in %s", (code, province) => {
    expect(regionsOfPostalCode("CA", code)).toContain(province);
    expect(problem("CA", province, code)).toBeNull();
  });

  it("refuses a Toronto postal code with Quebec as the province", () => {
    expect(problem("CA", "QC", "M5V 2T6")).toBe("M5V 2T6 is a postal code in Ontario, not in Quebec");
    expect(problem("CA", "ON", "X1A 2P5")).toBe(
      "X1A 2P5 is a postal code in the Northwest Territories or Nunavut, not in Ontario",
    );
  });
});

describe("an Australian postcode and its state or territory", () => {
  it.each([
    ["2000", "NSW"],
    ["2600", "ACT"],
    ["2913", "ACT"],
    ["0200", "ACT"],
    ["3000", "VIC"],
    ["8001", "VIC"],
    ["4000", "QLD"],
    ["9726", "QLD"],
    ["5000", "SA"],
    ["6000", "WA"],
    ["7000", "TAS"],
    ["0800", "NT"],
    ["2620", "NSW"],
    ["2620", "ACT"],
    ["0872", "SA"],
    ["4825", "NT"],
  ])("%s is in %s", (code, state) => {
    expect(problem("AU", state, code)).toBeNull();
  });

  it("refuses a Sydney postcode with Victoria as the state", () => {
    expect(problem("AU", "VIC", "2000")).toBe("2000 is a postal code in New South Wales, not in Victoria");
    expect(problem("AU", "QLD", "0800")).toBe("0800 is a postal code in the Northern Territory, not in Queensland");
    expect(problem("AU", "NSW", "2600")).toMatch(/in the Australian Capital Territory, not in New South Wales/);
  });
});

describe("the postal tables", () => {
  const sortedAndApart = (ranges: readonly PostalRange[]) =>
    ranges.every(([first, last], index) => first <= last && (index === 0 || first > ranges[index - 1][1]));

  it("are in order, without overlaps, within their number space", () => {
    expect(sortedAndApart(US_ZIP3)).toBe(true);
    expect(sortedAndApart(US_ZIP5)).toBe(true);
    expect(sortedAndApart(AU_POSTCODES)).toBe(true);
    expect(US_ZIP3.every(([first, last]) => first >= 0 && last <= 999)).toBe(true);
    expect(AU_POSTCODES.every(([first, last]) => first >= 0 && last <= 9999)).toBe(true);
  });

  it("name only places the address forms know, and every state, province and territory has codes", () => {
    const usPlaces = [...US_ZIP3, ...US_ZIP5].map(([, , place]) => place);
    for (const place of usPlaces) expect(place in REGIONS.US || place in US_ZIP_PLACES).toBe(true);
    for (const state of Object.keys(REGIONS.US)) expect(usPlaces).toContain(state);
    const caPlaces = Object.values(CA_FIRST_LETTER).flat();
    expect(new Set(caPlaces)).toEqual(new Set(Object.keys(REGIONS.CA)));
    const auPlaces = [...AU_POSTCODES.map(([, , place]) => place), ...Object.values(AU_SHARED_POSTCODES).flat()];
    expect(new Set(auPlaces)).toEqual(new Set(Object.keys(REGIONS.AU)));
  });
});

describe("a postal address whose postal code and region disagree", () => {
  const address = {
    name: "",
    company: "Test Garage",
    line1: "1 Renaissance Center",
    line2: "",
    city: "Detroit",
    region: "OR",
    postalCode: "48243",
    country: "US",
  };

  it("is refused at the postal code, with the reason", () => {
    const parsed = postalAddressSchema.safeParse(address);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues).toEqual([
      expect.objectContaining({ path: ["postalCode"], message: "48243 is a ZIP code in Michigan, not in Oregon" }),
    ]);
    expect(postalAddressSchema.safeParse({ ...address, region: "MI" }).success).toBe(true);
  });

  it("says only what is wrong first: a bad state or a bad ZIP code format is not also a disagreement", () => {
    const badState = postalAddressSchema.safeParse({ ...address, region: "ZZ" });
    expect(badState.error?.issues.map((issue) => issue.path.join("."))).toEqual(["region"]);
    const badZip = postalAddressSchema.safeParse({ ...address, postalCode: "4824" });
    expect(badZip.error?.issues.map((issue) => issue.message)).toEqual(["4824 is not a zip code of United States"]);
  });
});
