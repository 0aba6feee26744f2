/**
 * Outbound webhooks: endpoints people register (the Webhooks screen) and how a delivery is signed and
 * sent (the job in webhook-worker.server.ts). What each order event delivers is the order module's
 * (app/orders/webhook-events.server.ts). The scheme is in docs/webhooks.md.
 */
import { createHmac, randomBytes } from "node:crypto";
import {
  addEndpoint,
  countEndpointsOf,
  dropUndelivered,
  MAX_ENDPOINTS_PER_OWNER,
  redeliver,
  removeEndpoint,
  type EndpointHolder,
} from "~/models/webhook.server";
import type { CompanyRole } from "~/domain/company-roles";
import { isPublicHost } from "~/domain/public-host";
import { mayMakeCredentials, VERIFY_FIRST } from "./account-access.server";
import { audit, type AuditEvent } from "./audit-trail.server";
import { can } from "./companies.server";
import { getEnv } from "./env.server";
import { queueWebhookDelivery } from "./delivery-jobs.server";

export const SIGNATURE_HEADER = "PartsWorks-Signature";
export const EVENT_ID_HEADER = "PartsWorks-Event-Id";
export const EVENT_TYPE_HEADER = "PartsWorks-Event-Type";

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`: the timestamp bounds a replay. */
export function signatureHeader(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)) {
  const v1 = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
  return `t=${timestamp},v1=${v1}`;
}

// --- Endpoints ----------------------------------------------------------------------------------------

/**
 * Why a URL cannot be an endpoint, or null. HTTPS to a public server only: no address of this
 * machine or of any private or reserved range, and no name kept for inside a network (`localhost`,
 * `*.local`, `*.internal`, …): a webhook must not reach inside the shop. Plain http://127.0.0.1 only
 * when WEBHOOKS_ALLOW_LOCAL_HTTP is on (tests with a local receiver). Every delivery checks the
 * addresses the name resolves to again (webhook-send.server.ts).
 */
export function endpointUrlProblem(text: string, allowLocalHttp = getEnv().WEBHOOKS_ALLOW_LOCAL_HTTP) {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "Enter a full URL, such as https://erp.example.com/partsworks";
  }
  if (url.username || url.password) return "Leave the user name and password out of the URL: each delivery is signed";
  if (url.protocol === "http:" && url.hostname === "127.0.0.1" && allowLocalHttp) return null;
  if (url.protocol !== "https:") return "The URL must start with https://";
  if (!isPublicHost(url.hostname)) return "The URL must name a public server, not an address of a private network";
  return null;
}

type Actor = { id: string; email: string; role: "customer" | "admin"; companyId: string; companyRole: CompanyRole };
type Context = AuditEvent["context"];

/**
 * A customer's endpoints belong to their company and hear of every order of it, whoever placed it;
 * its owners add and remove them (an endpoint receives every order's details and money). An admin's
 * are their own and hear of every order.
 */
export function endpointsOf(actor: Pick<Actor, "id" | "role" | "companyId">): EndpointHolder {
  return actor.role === "admin" ? { staffId: actor.id } : { companyId: actor.companyId };
}

/** Whether the actor may add, remove and redeliver: an admin, or an owner of the company. */
export const mayManageWebhooks = (actor: Pick<Actor, "role" | "companyRole">) =>
  actor.role === "admin" || can(actor, "manage");

const OWNERS_ONLY = "Your company's owners manage its webhooks: ask one of them.";

/** A signing secret: 32 random bytes, shown once. */
/** A new endpoint's signing secret. */
export const newSecret = () => `whsec_${randomBytes(32).toString("base64url")}`;

export type AddEndpointOutcome =
  | { ok: true; endpoint: { id: string; url: string }; secret: string }
  | { ok: false; status: 400 | 403; field: "url" | ""; message: string };

/**
 * Registers an endpoint: an admin's hears of every order, a company owner's of every order of the
 * company. Refused while the owner's address is unproved.
 */
export async function createEndpoint(
  url: string,
  { actor, context }: { actor: Actor & { emailVerified: boolean }; context?: Context },
): Promise<AddEndpointOutcome> {
  if (!mayManageWebhooks(actor)) return { ok: false, status: 403, field: "url", message: OWNERS_ONLY };
  if (!mayMakeCredentials(actor)) return { ok: false, status: 403, field: "", message: VERIFY_FIRST };
  const problem = endpointUrlProblem(url);
  if (problem) return { ok: false, status: 400, field: "url", message: problem };
  const holder = endpointsOf(actor);
  if ((await countEndpointsOf(holder)) >= MAX_ENDPOINTS_PER_OWNER) {
    const who = "staffId" in holder ? "one account" : "one company";
    const message = `There are ${MAX_ENDPOINTS_PER_OWNER} endpoints, the most ${who} may have: remove one first`;
    return { ok: false, status: 400, field: "url", message };
  }
  const secret = newSecret();
  const scope = actor.role === "admin" ? "all" : "own";
  const endpoint = await addEndpoint({
    ownerId: actor.id,
    companyId: scope === "own" ? actor.companyId : null,
    scope,
    url,
    secret,
  });
  await audit({
    context,
    actor,
    action: "webhook.create",
    target: { type: "webhook", id: endpoint.id, label: url },
    after: { url, orders: scope === "all" ? "every order" : "the company's orders" },
  });
  return { ok: true, endpoint, secret };
}

/** Removes one of the holder's endpoints (and what it had not yet received); null when not theirs (or not an owner). */
export async function deleteEndpoint(endpointId: string, { actor, context }: { actor: Actor; context?: Context }) {
  if (!mayManageWebhooks(actor)) return null;
  const removed = await removeEndpoint(endpointsOf(actor), endpointId);
  if (!removed) return null;
  await dropUndelivered(removed.id);
  await audit({
    context,
    actor,
    action: "webhook.remove",
    target: { type: "webhook", id: removed.id, label: removed.url },
    before: { url: removed.url },
  });
  return removed;
}

/** Sends a delivery again with the same event id and body, freshly signed; null when not the holder's. */
export async function redeliverWebhook(deliveryId: string, actor: Actor) {
  if (!mayManageWebhooks(actor)) return null;
  const delivery = await redeliver(endpointsOf(actor), deliveryId);
  if (delivery) await queueWebhookDelivery(delivery._id);
  return delivery;
}
