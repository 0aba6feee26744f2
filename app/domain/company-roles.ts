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

/** The same, said to the person invited (the invitation page). */
export const COMPANY_ROLE_FOR_YOU: Record<CompanyRole, string> = {
  owner: "you manage members, roles, company details and approvals, and you order and pay",
  buyer: "you order parts for the company",
  accounts: "you see every order, invoice and the statement, and pay; you do not order",
};

/**
 * The name of a person's role where the header and the sidebar show it: Owner, Buyer, Accounts; Admin.
 * A customer alone in their company (`members` 1) has no role to tell apart: null, no label.
 */
export function roleLabel(user: { role: string; companyRole?: CompanyRole | null }, members?: number) {
  if (user.role === "admin") return "Admin";
  if (members === 1) return null;
  return COMPANY_ROLE_WORDS[user.companyRole ?? "owner"];
}
