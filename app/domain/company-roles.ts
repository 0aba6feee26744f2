/** A company member's roles and the words people read for them (shared by the server and the browser). */
export const COMPANY_ROLES = ["owner", "buyer", "accounts"] as const;
export type CompanyRole = (typeof COMPANY_ROLES)[number];

export const COMPANY_ROLE_WORDS: Record<CompanyRole, string> = {
  owner: "Owner",
  buyer: "Buyer",
  accounts: "Accounts",
};

/** What each role is for, said once for the invitation form and the members list. */
export const COMPANY_ROLE_HELP: Record<CompanyRole, string> = {
  owner: "members, roles, company details and approvals; orders and pays",
  buyer: "orders, within a spending limit if you set one",
  accounts: "sees every order, invoice and the statement, and pays; does not order",
};
