/**
 * The people services an admin uses on All Users and a customer's page: making and ending admins,
 * signing someone out everywhere, and a customer's price group and tax details. Each change goes
 * through one function here, which calls the models and raises the audit entry.
 */
import { deleteUserSessions } from "~/models/session.server";
import { demoteAdmin, makeAdmin, setPriceGroup, setTaxProfile } from "~/models/user-admin.server";
import type { UserView } from "~/models/user.server";
import type { TaxProfile } from "~/domain/tax";
import { revokeKeysMadeBy } from "./account-access.server";
import { audit, personLabel, type AuditEvent } from "./audit-trail.server";

type By = { actor: { id: string; email: string }; context?: AuditEvent["context"] };
type Person = Pick<UserView, "id" | "email" | "name">;

/** Makes `userId` an admin, audited; false when there is no such customer. `target`: them as read. */
export async function grantAdmin(userId: string, target: Person | null, { actor, context }: By) {
  if (!(await makeAdmin(userId))) return false;
  await audit({
    context,
    actor,
    action: "user.make-admin",
    target: { type: "user", id: userId, label: target ? personLabel(target) : null },
    before: { role: "customer" },
    after: { role: "admin" },
  });
  return true;
}

/** Ends `userId`'s admin role (never the last admin's), audited when `target` (them as read) exists. */
export async function revokeAdmin(userId: string, target: Person | null, { actor, context }: By) {
  const outcome = await demoteAdmin(userId);
  if (outcome === "demoted" && target) {
    await audit({
      context,
      actor,
      action: "user.demote",
      target: { type: "user", id: userId, label: personLabel(target) },
      before: { role: "admin" },
      after: { role: "customer" },
    });
  }
  return outcome;
}

/**
 * Ends every session of `userId` and revokes the API keys of `target` (them as read: a key is a way
 * in as good as a session, so it ends with them), audited; how many of each ended.
 */
export async function signOutEverywhere(userId: string, target: Person, { actor, context }: By) {
  const sessions = await deleteUserSessions(userId);
  const keys = await revokeKeysMadeBy(target, { actor, context, why: "signed out everywhere" });
  await audit({
    context,
    actor,
    action: "user.sign-out-everywhere",
    target: { type: "user", id: userId, label: personLabel(target) },
    before: { sessions, apiKeys: keys },
    after: { sessions: 0, apiKeys: 0 },
  });
  return { sessions, keys };
}

/** Tax details as the log and the notice say them: "DE DE123456789", or "not recorded". */
export const taxInWords = (tax: TaxProfile | null) =>
  tax ? [tax.country, tax.state, tax.vatNumber, tax.exemptionCertificate].filter(Boolean).join(" ") : "not recorded";

/**
 * A customer's price group and tax details, audited: two single-field updates of the same account
 * (each is atomic, and either alone leaves a valid account); false when the account changed meanwhile.
 */
export async function setCustomerPricing(
  user: Pick<UserView, "id" | "email" | "pricing">,
  { priceGroupId, tax }: { priceGroupId: string | null; tax: TaxProfile | null },
  { actor, context }: By,
) {
  if (!(await setPriceGroup(user.id, priceGroupId)) || !(await setTaxProfile(user.id, tax))) return false;
  await audit({
    context,
    actor,
    action: "user.set-pricing",
    target: { type: "user", id: user.id, label: user.email },
    before: { priceGroupId: user.pricing.priceGroupId, tax: taxInWords(user.pricing.tax) },
    after: { priceGroupId, tax: taxInWords(tax) },
  });
  return true;
}
