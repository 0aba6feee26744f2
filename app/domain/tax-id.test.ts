import { describe, expect, it } from "vitest";
import { COUNTRY_OPTIONS, countryName, normalizeTaxId, taxIdProblem, TAX_COUNTRIES } from "./tax-id";

describe("tax numbers", () => {
  it("are compared without case, spaces, dots and dashes", () => {
    expect(normalizeTaxId("che-123.456 789 mwst")).toBe("CHE123456789MWST");
  });
  it.each([
    ["DE", "DE123456789"],
    ["DE", "123456789"],
    ["DE", "de 123 456 789"],
    ["AT", "ATU12345678"],
    ["FR", "FR12345678901"],
    ["GR", "EL123456789"],
    ["GR", "123456789"],
    ["NL", "NL123456789B01"],
    ["GB", "GB123456789"],
    ["GB", "XI123456789"],
    ["CH", "CHE-123.456.789 MWST"],
    ["US", "12-3456789"],
    ["CA", "123456789RT0001"],
    ["AU", "51824753556"],
    ["MX", "ABC123456XYZ"],
    ["OTHER", "A1B2C3"],
  ])("%s accepts %j", (country, value) => {
    expect(taxIdProblem(country, value)).toBeNull();
  });
  it.each([
    ["DE", "DE12345678", "not a valid Germany"],
    ["DE", "FR12345678901", "not a valid Germany"],
    ["AT", "AT12345678", "not a valid Austria"],
    ["US", "US123456789", "not a valid United States"],
    ["NL", "NL123456789", "for example NL123456789B01"],
    ["DE", "12", "4 to 20 letters and digits"],
    ["DE", "DE-123<script>", "4 to 20 letters and digits"],
    [undefined, "DE123456789", "Choose the country"],
  ])("%s refuses %j", (country, value, message) => {
    expect(taxIdProblem(country, value)).toContain(message);
  });
  it("names every country it offers, and keeps an unknown code as it is", () => {
    expect(COUNTRY_OPTIONS).toHaveLength(TAX_COUNTRIES.length);
    expect(countryName("DE")).toBe("Germany");
    expect(countryName("ZZ")).toBe("ZZ");
    expect(countryName(null)).toBe("");
  });
});
