/**
 * API keys as a service: creating and revoking them (audited), and finding who a Bearer token
 * acts as. A customer's key belongs to their company and acts as the member who made it, never
 * beyond that member's role now, read on every call: a key whose maker is gone, left or was
 * removed from the company, or no longer has the key's scopes stops working at once. A staff key
 * (an admin's) is the admin's own.
 */
import {
  countLiveKeys,
  createApiKey,
  findLiveKey,
  listApiKeys,
  MAX_KEYS_PER_OWNER,
  revokeApiKey,
  type ApiKeyView,
  type KeyHolder as KeysOf,
} from "~/models/api-key.server";
import { getUserById, getUserNames, type UserView } from "~/models/user.server";
import { CUSTOMER_SCOPES, scopesOfRole, type ApiScope } from "~/domain/api-scopes";
import { mayMakeCredentials, VERIFY_FIRST } from "./account-access.server";
import { audit, personLabel, type AuditEvent } from "./audit-trail.server";
import { can } from "./companies.server";

type Member = Pick<UserView, "id" | "email" | "name" | "role" | "companyId" | "companyRole">;
type Maker = Member & Pick<UserView, "emailVerified">;
type Context = AuditEvent["context"];

/**
 * The scopes a person's keys may have now: an admin's the staff scopes; a customer reads, and
 * orders only while their role in the company orders (accounts does not).
 */
export function scopesOf(user: Pick<UserView, "role" | "companyRole">): readonly ApiScope[] {
  if (user.role === "admin") return scopesOfRole("admin");
  return can(user, "order") ? CUSTOMER_SCOPES : CUSTOMER_SCOPES.filter((scope) => scope !== "order");
}

/** The keys a person sees and revokes: an owner every key of the company, a member their own, an admin their staff keys. */
export function keysOf(user: Member): KeysOf {
  if (user.role === "admin") return { staffId: user.id };
  return can(user, "manage") ? { companyId: user.companyId } : { companyId: user.companyId, ownerId: user.id };
}

/** What "Your keys" lists, with who made each (an owner sees colleagues' keys). */
export async function listKeysFor(user: Member) {
  const keys = await listApiKeys(keysOf(user));
  const makers = await getUserNames(keys.map((key) => key.ownerId));
  return keys.map((key) => ({ ...key, createdBy: makers.get(key.ownerId)?.name ?? "A former member" }));
}

const keyTarget = (key: ApiKeyView, maker: string) => ({
  type: "api-key" as const,
  id: key.id,
  label: `${key.name} (${key.prefix}…) of ${maker}`,
});

export type CreateKeyOutcome =
  | { ok: true; token: string; key: ApiKeyView }
  | { ok: false; status: 400 | 403; field: "scopes" | "name" | ""; message: string };

/** Makes a key (its token is in the answer, once); refused while the maker's address is unproved. */
export async function createKeyFor(
  owner: Maker,
  { name, scopes }: { name: string; scopes: ApiScope[] },
  context?: Context,
): Promise<CreateKeyOutcome> {
  if (!mayMakeCredentials(owner)) return { ok: false, status: 403, field: "", message: VERIFY_FIRST };
  const allowed = scopesOf(owner);
  if (scopes.some((scope) => !allowed.includes(scope))) {
    return {
      ok: false,
      status: 400,
      field: "scopes",
      message: `Your keys may have these scopes only: ${allowed.join(", ")}`,
    };
  }
  const staff = owner.role === "admin";
  // A company's keys are counted together: one limit however many members make them.
  if ((await countLiveKeys(staff ? { staffId: owner.id } : { companyId: owner.companyId })) >= MAX_KEYS_PER_OWNER) {
    return {
      ok: false,
      status: 400,
      field: "name",
      message: staff
        ? `You have ${MAX_KEYS_PER_OWNER} keys already: revoke one you no longer use first`
        : `Your company has ${MAX_KEYS_PER_OWNER} keys already: revoke one it no longer uses first`,
    };
  }
  const unique = [...new Set(scopes)];
  const { token, key } = await createApiKey({
    ownerId: owner.id,
    companyId: staff ? null : owner.companyId,
    name,
    scopes: unique,
  });
  await audit({
    context,
    actor: owner,
    action: "api-key.create",
    target: keyTarget(key, personLabel(owner)),
    after: { name, scopes: unique.join(", ") },
  });
  return { ok: true, token, key };
}

/** Revokes a key the person may revoke (an owner: any of the company's); null when there is no such live key. */
export async function revokeKeyOf(user: Member, keyId: string, context?: Context) {
  const key = await revokeApiKey(keyId, keysOf(user));
  if (!key) return null;
  const maker = key.ownerId === user.id ? user : await getUserById(key.ownerId);
  await audit({
    context,
    actor: user,
    action: "api-key.revoke",
    target: keyTarget(key, maker ? personLabel(maker) : "a former member"),
  });
  return key;
}

export type KeyHolder = { key: ApiKeyView; user: UserView };

/** Who a token acts as, or why not (both answers are a 401 to the caller). */
export async function authenticateToken(token: string): Promise<KeyHolder | null> {
  const key = await findLiveKey(token);
  if (!key) return null;
  const user = await getUserById(key.ownerId);
  if (!user) return null;
  // A company's key works while its maker is a customer in that company (removed or gone: it stops).
  if (key.companyId && (user.role !== "customer" || user.companyId !== key.companyId)) return null;
  // A key made by an admin who is now a customer (or the other way), or by a buyer now in accounts, no longer fits.
  const allowed = scopesOf(user);
  if (!key.scopes.every((scope) => allowed.includes(scope))) return null;
  return { key, user };
}
