import { listMembers } from "~/models/company-member.server";
import type { UserView } from "~/models/user.server";

/** A buyer's limit per order and who approves what goes over it, for the screens that order. */
export type SpendingLimit = { limitCents: number; approvers: string };

/** The owners of a company by name ("Olivia Owner or Omar Owner"): who approves orders over a limit. */
export async function approversOf(companyId: string) {
  const owners = (await listMembers(companyId)).filter((member) => member.role === "owner");
  return owners.length ? owners.map((owner) => owner.name).join(" or ") : "an owner of your company";
}

/** The limit of a buyer who has one, with the owners' names ("Olivia Owner or Omar Owner"); null for anyone else. */
export async function spendingLimitFor(user: UserView): Promise<SpendingLimit | null> {
  if (user.role !== "customer" || user.companyRole !== "buyer" || user.spendingLimitCents === null) return null;
  return { limitCents: user.spendingLimitCents, approvers: await approversOf(user.companyId) };
}
