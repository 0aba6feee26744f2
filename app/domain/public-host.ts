/**
 * Whether a host is a public server's: what webhook endpoints must name (checked when an endpoint
 * is added, app/services/webhooks.server.ts, and again at every delivery after resolution,
 * webhook-send.server.ts), so that a webhook cannot be pointed inside the shop's own network.
 */
import ipaddr from "ipaddr.js";

/** Ranges ipaddr.js 1.9 counts as unicast that are no public server's either (benchmarking, IETF, documentation). */
const ALSO_REFUSED = ["198.18.0.0/15", "192.0.0.0/24", "2001:db8::/32", "100::/64"].map((cidr) =>
  ipaddr.parseCIDR(cidr),
);

/**
 * Whether an address may receive webhooks: public unicast only. Loopback, private, link-local,
 * carrier-grade NAT, multicast, unspecified and reserved ranges are refused, and IPv4 inside IPv6
 * (IPv4-mapped is read as the IPv4 address it carries; NAT64, 6to4 and Teredo are refused).
 */
export function isPublicAddress(address: string) {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  if (parsed.range() !== "unicast") return false;
  return !ALSO_REFUSED.some(([network, bits]) => {
    if (parsed.kind() !== network.kind()) return false;
    return parsed instanceof ipaddr.IPv4
      ? parsed.match(network as ipaddr.IPv4, bits)
      : (parsed as ipaddr.IPv6).match(network as ipaddr.IPv6, bits);
  });
}

/** Names that only ever lead to this machine or its own network (RFC 6761, 6762, 8375, and cloud providers' `.internal`). */
const INSIDE_NAME = /(^|\.)(localhost|local|internal|home\.arpa)$/;

/**
 * Whether a URL's host (as `new URL(...).hostname` gives it) may be a public server's: a public
 * address, or a name with a dot that is none of the names kept for inside a network. A trailing
 * dot (`localhost.`, the same name written absolute) changes nothing.
 */
export function isPublicHost(hostname: string) {
  const host = hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.+$/, "")
    .toLowerCase();
  if (ipaddr.isValid(host)) return isPublicAddress(host);
  return host.includes(".") && !INSIDE_NAME.test(host);
}
