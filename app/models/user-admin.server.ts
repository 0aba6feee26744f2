/**
 * What an admin changes on a user: the admin role (never the last admin's), and a customer's price
 * group, tax details and caps on unpaid orders (all kept on their company).
 */
import { setCompanyPriceGroup, setCompanyTaxProfile, setCompanyUnpaidCaps } from "./company.server";
import type { TaxProfile } from "~/domain/tax";
import { User, companyIdOfUser, getUserById } from "./user.server";

/** Sets a customer's price group (their company's; null: none); false for an admin or no such user. */
export async function setPriceGroup(userId: string, priceGroupId: string | null) {
  if (!/^[a-f0-9]{24}$/i.test(userId)) return false;
  if (!(await User.exists({ _id: userId, role: "customer" }))) return false;
  const companyId = await companyIdOfUser(userId);
  return companyId ? setCompanyPriceGroup(companyId, priceGroupId) : false;
}

/** Records a customer's tax details (their company's; null: none recorded); false for an admin or no such user. */
export async function setTaxProfile(userId: string, tax: TaxProfile | null) {
  if (!/^[a-f0-9]{24}$/i.test(userId)) return false;
  if (!(await User.exists({ _id: userId, role: "customer" }))) return false;
  const companyId = await companyIdOfUser(userId);
  return companyId ? setCompanyTaxProfile(companyId, tax) : false;
}

/** An admin sets (or, with null, clears) a customer's caps on unpaid card orders (their company's). */
export async function setUnpaidCaps(userId: string, caps: { orders: number | null; valueCents: number | null }) {
  if (!/^[a-f0-9]{24}$/i.test(userId)) return null;
  if (!(await User.exists({ _id: userId, role: "customer" }))) return null;
  const companyId = await companyIdOfUser(userId);
  if (!companyId || !(await setCompanyUnpaidCaps(companyId, caps))) return null;
  return getUserById(userId);
}

/** Promotes a user; false when there is no such user or they are already an admin. */
export async function makeAdmin(userId: string) {
  if (!/^[a-f0-9]{24}$/i.test(userId)) return false;
  const result = await User.updateOne({ _id: userId, role: { $ne: "admin" } }, { $set: { role: "admin" } });
  return result.modifiedCount === 1;
}

/**
 * Takes the admin role from a user, never from the last admin: "not-admin" when there is no such
 * admin, "last-admin" when no other admin would remain.
 */
export async function demoteAdmin(userId: string): Promise<"demoted" | "not-admin" | "last-admin"> {
  if (!/^[a-f0-9]{24}$/i.test(userId)) return "not-admin";
  if ((await User.countDocuments({ role: "admin" })) < 2) {
    return (await User.exists({ _id: userId, role: "admin" })) ? "last-admin" : "not-admin";
  }
  const result = await User.updateOne({ _id: userId, role: "admin" }, { $set: { role: "customer" } });
  if (result.modifiedCount !== 1) return "not-admin";
  // Demote, then count: if concurrent demotions left no admin, each one that sees zero puts its admin back.
  if ((await User.countDocuments({ role: "admin" })) === 0) {
    await User.updateOne({ _id: userId, role: "customer" }, { $set: { role: "admin" } });
    return "last-admin";
  }
  return "demoted";
}
