import { describe, expect, it } from "vitest";
import { API_SCOPES, CUSTOMER_SCOPES, SCOPE_WORDS, scopesOfRole, STAFF_SCOPES } from "./api-scopes";
import { COMPANY_ROLE_HELP, COMPANY_ROLE_WORDS, COMPANY_ROLES } from "./company-roles";

describe("API key scopes", () => {
  it("give a customer's key no staff scope, and a staff key no customer scope", () => {
    expect(scopesOfRole("customer")).toEqual(CUSTOMER_SCOPES);
    expect(scopesOfRole("admin")).toEqual(STAFF_SCOPES);
    expect(scopesOfRole("customer").some((scope) => (STAFF_SCOPES as readonly string[]).includes(scope))).toBe(false);
  });
  it.each(API_SCOPES.map((scope) => [scope]))("%s is said in words", (scope) => {
    expect(SCOPE_WORDS[scope].length).toBeGreaterThan(10);
  });
});

describe("company roles", () => {
  it.each(COMPANY_ROLES.map((role) => [role]))("%s has a name and a meaning", (role) => {
    expect(COMPANY_ROLE_WORDS[role]).toMatch(/^[A-Z]/);
    expect(COMPANY_ROLE_HELP[role].length).toBeGreaterThan(10);
  });
});
