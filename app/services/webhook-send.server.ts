/**
 * Sending one webhook delivery, so that a receiver's name cannot lead the shop inside its own
 * network (SSRF). Each attempt resolves the name once, checks every address it gives, and connects
 * to exactly the address it checked: the connection's own lookup answers with it, so a name that
 * answers a public address to the check and 127.0.0.1 a moment later (DNS rebinding) reaches
 * nothing inside. Redirects are not followed. What the endpoint's owner is told of a failure before
 * an HTTP answer is one sentence, whether the name does not resolve, leads inside, or the port is
 * closed, filtered or speaks something else.
 */
import { lookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { isPublicAddress } from "~/domain/public-host";
import { EVENT_ID_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER, signatureHeader } from "./webhooks.server";

/** A name's addresses, as the operating system's resolver gives them (hosts file, DNS). */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** A failed attempt: `message` is what the endpoint's owner sees; `detail` is for the shop's log only. */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly statusCode: number | null,
    readonly detail?: string,
  ) {
    super(message);
  }
}

/**
 * The one answer for every failure before an HTTP answer: a name that does not resolve, one that
 * leads to an address inside a network, a port refused, reset or silent, not TLS, not HTTP. Told
 * apart, they would let an endpoint's owner map the shop's network (which inside names exist,
 * which addresses answer); the log keeps the difference.
 */
export const NO_ANSWER = "the endpoint could not be reached (no HTTP answer)";
const NOT_DELIVERED = `not delivered: ${NO_ANSWER}`;

type SendOptions = {
  timeoutMs: number;
  /** Plain http://127.0.0.1 endpoints (WEBHOOKS_ALLOW_LOCAL_HTTP, tests with a local receiver). */
  allowLocalHttp: boolean;
  resolve?: Resolver;
  /** Which resolved addresses may be connected to (tests stand a loopback address in for a public one). */
  allowed?: (address: string) => boolean;
};

/** The address this attempt connects to: resolved once, every answer checked. */
async function pickAddress(
  url: URL,
  { allowLocalHttp, resolve = systemResolver, allowed = isPublicAddress }: SendOptions,
) {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (allowLocalHttp && url.protocol === "http:" && host === "127.0.0.1") return { address: host, family: 4 };
  if (ipaddr.isValid(host)) {
    if (!allowed(host)) throw new DeliveryError(NOT_DELIVERED, null, `${host} is not public`);
    return { address: host, family: host.includes(":") ? 6 : 4 };
  }
  const addresses = await resolve(host).catch((error: unknown) => {
    throw new DeliveryError(NOT_DELIVERED, null, `${host} does not resolve: ${String(error)}`);
  });
  if (!addresses.length) throw new DeliveryError(NOT_DELIVERED, null, `${host} does not resolve`);
  const refused = addresses.find(({ address }) => !allowed(address));
  if (refused) throw new DeliveryError(NOT_DELIVERED, null, `${host} gave ${refused.address}, not public`);
  return addresses[0];
}

/**
 * One attempt of a delivery: POSTs the signed body to the endpoint at the address checked for this
 * attempt. Resolves with the status of a 2xx answer; rejects with a DeliveryError otherwise.
 */
export async function sendDelivery(
  endpoint: { url: string; secret: string },
  delivery: { body: string; eventId: string; type: string; attempts: number },
  options: SendOptions,
): Promise<number> {
  const url = new URL(endpoint.url);
  const pinned = await pickAddress(url, options);
  // The connection's lookup gives the checked address whatever the name answers now; TLS still
  // checks the certificate against the name (servername is the URL's host).
  const lookupPinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  const client = url.protocol === "https:" ? https : http;
  const status = await new Promise<number>((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: "POST",
        lookup: lookupPinned,
        agent: false,
        signal: AbortSignal.timeout(options.timeoutMs),
        headers: {
          "Content-Type": "application/json",
          "Content-Length": Buffer.byteLength(delivery.body),
          "User-Agent": "PartsWorks-Webhooks/1",
          [SIGNATURE_HEADER]: signatureHeader(endpoint.secret, delivery.body),
          [EVENT_ID_HEADER]: delivery.eventId,
          [EVENT_TYPE_HEADER]: delivery.type,
          "PartsWorks-Delivery-Attempt": String(delivery.attempts),
        },
      },
      (response) => {
        // Only the status matters; the body is not read.
        response.destroy();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on("error", (error: NodeJS.ErrnoException) => {
      reject(new DeliveryError(NOT_DELIVERED, null, `${pinned.address}: ${error.code ?? error.message}`));
    });
    request.end(delivery.body);
  });
  if (status < 200 || status > 299) throw new DeliveryError(`answered ${status}`, status);
  return status;
}
