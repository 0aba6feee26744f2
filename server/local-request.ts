import type { Request } from "express";

/**
 * Whether a request came straight from this machine: what the caught mail's pages (reset links)
 * and the details of /healthz answer to.
 *
 * The socket's peer decides (a header such as X-Forwarded-For could be forged), and a reverse proxy
 * on this machine connects from loopback on behalf of anyone, so a request that shows any sign of
 * one is not from this machine: a proxy header, a shop configured to have proxies (TRUST_PROXY),
 * HTTP/1.0 (nginx's default `proxy_pass` speaks it and adds no header at all), or a Host that is not
 * a name of this machine (a proxy passing the public name on; a page on another site whose name was
 * pointed at 127.0.0.1, DNS rebinding).
 */
export function isFromThisMachine(req: Request, { proxyConfigured }: { proxyConfigured: boolean }) {
  if (proxyConfigured) return false;
  if (!isLoopbackAddress(req.socket.remoteAddress)) return false;
  if (PROXY_HEADERS.some((name) => req.headers[name] !== undefined)) return false;
  if (req.httpVersionMajor < 1 || (req.httpVersionMajor === 1 && req.httpVersionMinor < 1)) return false;
  return isLocalHost(req.headers.host);
}

/** Headers a reverse proxy adds (nginx, Apache, Caddy, HAProxy, CDNs): their presence means a proxy relayed the request. */
export const PROXY_HEADERS = [
  "forwarded",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-port",
  "x-forwarded-server",
  "x-real-ip",
  "x-client-ip",
  "x-original-forwarded-for",
  "via",
  "cf-connecting-ip",
  "true-client-ip",
  "fastly-client-ip",
];

/** A peer on this machine: 127.0.0.0/8 or ::1, also as an IPv4-mapped IPv6 address. */
export function isLoopbackAddress(address: string | undefined) {
  if (!address) return false;
  const plain = address.startsWith("::ffff:") ? address.slice(7) : address;
  return plain === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(plain);
}

/** A host name only this machine can open: localhost (also `*.localhost`), a loopback address. */
function isLocalHostName(hostname: string) {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || isLoopbackAddress(host);
}

/** A Host header (name and port) that names this machine. */
function isLocalHost(header: string | undefined) {
  if (!header) return false;
  try {
    return isLocalHostName(new URL(`http://${header}`).hostname);
  } catch {
    return false;
  }
}

/** A PUBLIC_URL that only this machine can open (localhost, a loopback address). */
export function isLocalUrl(url: string) {
  return isLocalHostName(new URL(url).hostname);
}
