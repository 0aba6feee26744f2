/**
 * API keys as a service: creating and revoking them (audited), and finding who a Bearer token
 * acts as. A key acts as its owner and never beyond the owner's role, read on every call: a key
 * whose owner is gone or no longer has the key's role stops working at once.
 */
import {
  countLiveKeys,
  createApiKey,
  findLiveKey,
  MAX_KEYS_PER_OWNER,
  revokeApiKey,
  type ApiKeyView,
} from "~/models/api-key.server";
import { getUserById, type UserView } from "~/models/user.server";
import { scopesOfRole, type ApiScope } from "~/domain/api-scopes";
import { audit, personLabel, type AuditEvent } from "./audit-trail.server";

type Owner = Pick<UserView, "id" | "email" | "name" | "role">;
type Context = AuditEvent["context"];

const keyTarget = (key: ApiKeyView, owner: Owner) => ({
  type: "api-key" as const,
  id: key.id,
  label: `${key.name} (${key.prefix}…) of ${personLabel(owner)}`,
});

export type CreateKeyOutcome =
  { ok: true; token: string; key: ApiKeyView } | { ok: false; field: "scopes" | "name"; message: string };

export async function createKeyFor(
  owner: Owner,
  { name, scopes }: { name: string; scopes: ApiScope[] },
  context?: Context,
): Promise<CreateKeyOutcome> {
  const allowed = scopesOfRole(owner.role);
  if (scopes.some((scope) => !allowed.includes(scope))) {
    return { ok: false, field: "scopes", message: `Your keys may have these scopes only: ${allowed.join(", ")}` };
  }
  if ((await countLiveKeys(owner.id)) >= MAX_KEYS_PER_OWNER) {
    return {
      ok: false,
      field: "name",
      message: `You have ${MAX_KEYS_PER_OWNER} keys already: revoke one you no longer use first`,
    };
  }
  const unique = [...new Set(scopes)];
  const { token, key } = await createApiKey({ ownerId: owner.id, name, scopes: unique });
  await audit({
    context,
    actor: owner,
    action: "api-key.create",
    target: keyTarget(key, owner),
    after: { name, scopes: unique.join(", ") },
  });
  return { ok: true, token, key };
}

export async function revokeKeyOf(owner: Owner, keyId: string, context?: Context) {
  const key = await revokeApiKey(keyId, owner.id);
  if (!key) return null;
  await audit({ context, actor: owner, action: "api-key.revoke", target: keyTarget(key, owner) });
  return key;
}

export type KeyHolder = { key: ApiKeyView; user: UserView };

/** Who a token acts as, or why not (both answers are a 401 to the caller). */
export async function authenticateToken(token: string): Promise<KeyHolder | null> {
  const key = await findLiveKey(token);
  if (!key) return null;
  const user = await getUserById(key.ownerId);
  if (!user) return null;
  // A key made by an admin who is now a customer (or the other way) no longer fits its owner.
  const allowed = scopesOfRole(user.role);
  if (!key.scopes.every((scope) => allowed.includes(scope))) return null;
  return { key, user };
}
