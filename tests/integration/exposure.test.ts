/**
 * What a stranger on the network could reach in a demo or a production-like start: the caught
 * mail (reset links) only from this machine, never on a production shop with a public address;
 * the client address from X-Forwarded-For only when the peer is a listed proxy. Each shop here is
 * its own process, started with the setting under test, and stopped once its tests are done (a shop
 * left idle still polls its jobs). Two settings that answer separate questions share a shop: which
 * interface it listens on and whether it shows the caught mail; an idle timeout and a count of proxies.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { LocalDb } from "../../server/local-db";
import { startShop, type Shop } from "../../scripts/bench/shop";
import { Session } from "~/models/session.server";
import { createUser, sessionCookieValue, TEST_PASSWORD } from "../setup/factories";

const work = mkdtempSync(path.join(tmpdir(), "shop-exposure-"));
const db = { uri: process.env.MONGODB_URI! } as LocalDb;
const buildDir = process.env.BUILD_DIR!;
const shops: Shop[] = [];
/** A valid 1x1 PNG (what an upload is re-encoded to looks the same to the route). */
const ONE_PIXEL_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

/** This machine's own non-loopback address: a request to it arrives from a non-loopback peer. */
const outsideAddress = Object.values(networkInterfaces())
  .flat()
  .find((entry) => entry && entry.family === "IPv4" && !entry.internal)?.address;

async function shopWith(extraEnv: Record<string, string>, onLog?: (chunk: string) => void) {
  const shop = await startShop({
    work: path.join(work, String(shops.length)),
    db,
    buildDir,
    extraEnv: { SESSION_SECRET: process.env.SESSION_SECRET!, ...extraEnv },
    onLog,
  });
  shops.push(shop);
  return shop;
}

const stopping: Promise<void>[] = [];

afterAll(async () => {
  await Promise.all([...shops.map((shop) => shop.stop()), ...stopping]);
  rmSync(work, { recursive: true, force: true });
});

/**
 * Stops a shop whose tests are done, without waiting for its graceful exit (about 3 s, most of it
 * the drain delay): afterAll waits for those, and stops any shop a failure left running.
 */
function stopShop(shop: Shop | undefined) {
  if (!shop || !shops.includes(shop)) return;
  shops.splice(shops.indexOf(shop), 1);
  stopping.push(shop.stop());
}

/** A raw GET whose answer headers come back as sent (repeated headers kept apart). */
function rawGet(host: string, port: number, pathname: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: string[]; body: string }>((resolve, reject) => {
    const req = httpRequest({ host, port, path: pathname, method: "GET", headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.rawHeaders, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** A request as nginx's default `proxy_pass` relays it: HTTP/1.0, the upstream's address as Host, no proxy header. */
function http10Get(port: number, pathname: string) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () =>
      socket.write(`GET ${pathname} HTTP/1.0\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`),
    );
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (text += chunk));
    socket.on("end", () => resolve({ status: Number(/^HTTP\/1\.\d (\d{3})/.exec(text)?.[1] ?? 0), text }));
    socket.on("error", reject);
  });
}

/** Every value sent for one header name (raw headers alternate name, value). */
const headerValues = (raw: string[], name: string) =>
  raw.flatMap((key, i) => (i % 2 === 0 && key.toLowerCase() === name ? [raw[i + 1]] : []));

function post(shop: Shop, pathname: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(`${shop.url}${pathname}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: shop.url, ...headers },
    body: new URLSearchParams(fields),
  });
}

describe("the caught mail of a shop without SMTP_URL", () => {
  let shop: Shop;
  beforeAll(async () => {
    // Its own local database and demo data, as `npm run demo` has (on the suite's database another
    // shop's mail worker could send the message through its own catcher).
    shop = await shopWith({ NODE_ENV: "test", SMTP_URL: "", MONGODB_URI: "", AVATAR_DIR: path.join(work, "avatars") });
  }, 120_000);
  afterAll(() => stopShop(shop));

  test("a stranger cannot read a reset link: /dev/mail answers only to this machine's loopback", async () => {
    expect(outsideAddress, "this machine needs a non-loopback address for this test").toBeTruthy();
    const victim = { email: "admin@partsworks.test" }; // the demo's admin
    expect((await post(shop, "/forgot-password", { email: victim.email })).status).toBe(302);

    // From this machine the link is there (the developer's own inbox)...
    await expect
      .poll(async () => (await rawGet("127.0.0.1", shop.port, "/dev/mail.json")).body, { timeout: 15_000 })
      .toContain(victim.email);
    // ...from any other peer every page of the catcher is the shop's 404, and no link leaks.
    for (const pathname of ["/dev/mail.json", "/dev/mail"]) {
      const answer = await rawGet(outsideAddress!, shop.port, pathname);
      expect(answer.status, pathname).toBe(404);
      expect(answer.body, pathname).not.toContain("reset-password?token=");
      expect(answer.body, pathname).not.toContain(victim.email);
    }
    // A forged header changes nothing: the socket's peer decides.
    const forged = await fetch(`http://${outsideAddress}:${shop.port}/dev/mail.json`, {
      headers: { "X-Forwarded-For": "127.0.0.1", Host: "localhost" },
    });
    expect(forged.status).toBe(404);
  });

  test("a reverse proxy on this machine does not expose it: any request relayed with proxy headers gets the 404", async () => {
    // nginx, Apache or Caddy on the same host connect from loopback for anyone on the internet.
    const relayed: Record<string, string>[] = [
      { "X-Forwarded-For": "198.51.100.7" },
      { "X-Real-IP": "198.51.100.7" },
      { Forwarded: "for=198.51.100.7;proto=https" },
      { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "shop.example.com" },
      { Via: "1.1 proxy" },
    ];
    for (const headers of relayed) {
      const answer = await rawGet("127.0.0.1", shop.port, "/dev/mail.json", headers);
      expect(answer.status, JSON.stringify(headers)).toBe(404);
      expect(answer.body).not.toContain("reset-password?token=");
    }
    expect((await rawGet("127.0.0.1", shop.port, "/dev/mail.json")).status).toBe(200);
  });

  test("nor does one that adds no header: nginx's default proxy_pass (HTTP/1.0), or a Host that is not this machine's", async () => {
    const relayed = await http10Get(shop.port, "/dev/mail.json");
    expect(relayed.status).toBe(404);
    expect(relayed.text).not.toContain("reset-password?token=");
    // A proxy that passes the public name on, or a page whose name was pointed at 127.0.0.1 (DNS rebinding).
    for (const host of ["shop.example.com", "attacker.example:80"]) {
      const answer = await rawGet("127.0.0.1", shop.port, "/dev/mail.json", { Host: host });
      expect(answer.status, host).toBe(404);
    }
    expect((await rawGet("127.0.0.1", shop.port, "/dev/mail.json", { Host: `localhost:${shop.port}` })).status).toBe(
      200,
    );
  });

  test("/healthz tells anyone ok or not and nothing more; details only to this machine without a proxy", async () => {
    const json = async (answer: Promise<{ status: number; body: string }>) => {
      const { status, body } = await answer;
      return { status, body: JSON.parse(body) as unknown };
    };
    const bare = { status: 200, body: { status: "ok" } };
    expect(await json(rawGet(outsideAddress!, shop.port, "/healthz"))).toEqual(bare);
    expect(await json(rawGet("127.0.0.1", shop.port, "/healthz", { "X-Forwarded-For": "198.51.100.7" }))).toEqual(bare);
    expect(await json(rawGet("127.0.0.1", shop.port, "/healthz", { Host: "shop.example.com" }))).toEqual(bare);
    expect(await json(rawGet("127.0.0.1", shop.port, "/healthz"))).toEqual({
      status: 200,
      body: { status: "ok", integrations: { stripe: expect.any(Boolean), google: expect.any(Boolean) } },
    });
  });

  test("a profile picture carries one CSP and one nosniff header, its own closed ones", async () => {
    const name = `${randomBytes(16).toString("hex")}.png`;
    const dir = path.join(work, "avatars");
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, name), ONE_PIXEL_PNG);
    const answer = await rawGet("127.0.0.1", shop.port, `/avatars/${name}`);
    expect(answer.status).toBe(200);
    expect(headerValues(answer.headers, "content-security-policy")).toEqual(["default-src 'none'; sandbox"]);
    expect(headerValues(answer.headers, "x-content-type-options")).toEqual(["nosniff"]);
    // Pages keep the shop's own policy, once.
    const page = await rawGet("127.0.0.1", shop.port, "/blogs");
    expect(headerValues(page.headers, "content-security-policy")).toHaveLength(1);
    expect(headerValues(page.headers, "content-security-policy")[0]).toContain("default-src 'self'");
  });

  test("every answer carries one Cache-Control header, not the catcher's no-store beside the page's own", async () => {
    for (const pathname of ["/", "/parts", "/login", "/healthz", "/dev/mail"]) {
      const answer = await rawGet("127.0.0.1", shop.port, pathname);
      expect(headerValues(answer.headers, "cache-control"), pathname).toHaveLength(1);
    }
  });
});

describe("a production demo (local database, no SMTP_URL)", () => {
  // Started as `npm run demo` starts it (HOST=127.0.0.1), given a public PUBLIC_URL: where it listens
  // and whether it shows the caught mail are separate settings (server.ts), so one shop answers both.
  let shop: Shop;
  beforeAll(async () => {
    shop = await shopWith({
      NODE_ENV: "production",
      SMTP_URL: "",
      MONGODB_URI: "",
      HOST: "127.0.0.1",
      PUBLIC_URL: "https://shop.example.com",
    });
  }, 120_000);
  afterAll(() => stopShop(shop));

  test("with a public PUBLIC_URL shows no caught mail at all, not even to this machine", async () => {
    for (const pathname of ["/dev/mail.json", "/dev/mail"]) {
      expect((await rawGet("127.0.0.1", shop.port, pathname)).status, pathname).toBe(404);
    }
  });

  test("started as npm run demo starts it (HOST=127.0.0.1), nothing but this machine can connect", async () => {
    expect((await rawGet("127.0.0.1", shop.port, "/healthz")).status).toBe(200);
    await expect(rawGet(outsideAddress!, shop.port, "/dev/mail.json")).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe("a demo that is not only on this machine (local database, no SMTP_URL)", () => {
  test("started in development with a public PUBLIC_URL shows no caught mail, not even to this machine", async () => {
    const shop = await shopWith({
      NODE_ENV: "test",
      SMTP_URL: "",
      MONGODB_URI: "",
      PUBLIC_URL: "https://shop.example.com",
    });
    for (const pathname of ["/dev/mail.json", "/dev/mail"]) {
      expect((await rawGet("127.0.0.1", shop.port, pathname)).status, pathname).toBe(404);
    }
    stopShop(shop);
  }, 120_000);

  test("with a proxy configured (TRUST_PROXY) shows no caught mail and no health details, not even to this machine", async () => {
    const shop = await shopWith({ NODE_ENV: "test", SMTP_URL: "", MONGODB_URI: "", TRUST_PROXY: "loopback" });
    for (const pathname of ["/dev/mail.json", "/dev/mail"]) {
      expect((await rawGet("127.0.0.1", shop.port, pathname)).status, pathname).toBe(404);
    }
    const health = await rawGet("127.0.0.1", shop.port, "/healthz");
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toEqual({ status: "ok" });
    stopShop(shop);
  }, 120_000);
});

describe("a shop served over HTTPS", () => {
  test("names its session cookie __Host-session (Secure, Path=/, no Domain) and reads it back", async () => {
    const shop = await shopWith({ NODE_ENV: "production", PUBLIC_URL: "https://shop.example.com" });
    const user = await createUser();
    // The proxy in front speaks HTTPS; the shop sees its public origin in Origin.
    const answer = await post(
      shop,
      "/login",
      { email: user.email, password: TEST_PASSWORD },
      { Origin: "https://shop.example.com" },
    );
    expect(answer.status).toBe(302);
    const cookies = answer.headers.getSetCookie();
    const session = cookies.find((cookie) => cookie.startsWith("__Host-session="));
    expect(session, cookies.join("\n")).toBeTruthy();
    expect(session).toMatch(/;\s*Secure/i);
    expect(session).toMatch(/;\s*Path=\/(;|$)/i);
    expect(session).not.toMatch(/;\s*Domain=/i);
    expect(cookies.some((cookie) => cookie.startsWith("__session="))).toBe(false);
    const toast = cookies.find((cookie) => /^(__Host-)?toast=/.test(cookie));
    if (toast) expect(toast).toMatch(/^__Host-toast=/);
    const dashboard = await fetch(`${shop.url}/dashboard`, {
      headers: { Cookie: session!.split(";")[0] },
      redirect: "manual",
    });
    expect(dashboard.status).toBe(200);
    expect(dashboard.headers.get("cache-control")).toBe("private, no-store");
    // The old name opens nothing: a cookie planted without the prefix is not a session.
    const planted = await fetch(`${shop.url}/dashboard`, {
      headers: { Cookie: session!.split(";")[0].replace("__Host-session=", "__session=") },
      redirect: "manual",
    });
    expect(planted.status).toBe(302);
    stopShop(shop);
  }, 120_000);
});

/**
 * One shop for a one-minute idle timeout and for TRUST_PROXY as a count of proxies: neither setting
 * enters the other's answer (the idle test sends no proxy header), so a second start would prove nothing more.
 */
let idleAndCountedProxy: Promise<{ shop: Shop; log: () => string }> | undefined;
function idleAndCountedProxyShop() {
  let log = "";
  idleAndCountedProxy ??= shopWith({ SESSION_IDLE_MINUTES: "1", TRUST_PROXY: "1" }, (chunk) => (log += chunk)).then(
    (shop) => ({ shop, log: () => log }),
  );
  return idleAndCountedProxy;
}

describe("SESSION_IDLE_MINUTES", () => {
  test("a shop set to a one-minute idle timeout signs out a session left alone for just over a minute", async () => {
    const { shop } = await idleAndCountedProxyShop();
    const user = await createUser();
    const fresh = await sessionCookieValue(user.id);
    const idle = await sessionCookieValue(user.id);
    const leftAlone = async (sessionId: string, ms: number) =>
      Session.collection.updateOne({ _id: sessionId as never }, { $set: { lastSeenAt: new Date(Date.now() - ms) } });
    await leftAlone(fresh.sessionId, 45_000);
    await leftAlone(idle.sessionId, 61_000);
    const open = (value: string) =>
      fetch(`${shop.url}/dashboard`, { headers: { Cookie: `__session=${value}` }, redirect: "manual" });
    expect((await open(fresh.value)).status).toBe(200);
    const signedOut = await open(idle.value);
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("location")).toMatch(/^\/login/);
    expect(await Session.exists({ _id: idle.sessionId })).toBeNull();
  }, 120_000);
});

describe("TRUST_PROXY", () => {
  const signInFails = (shop: Shop, email: string, forwardedFor: string) =>
    post(shop, "/login", { email, password: "wrong-password-1" }, { "X-Forwarded-For": forwardedFor });

  test("a client that is not a listed proxy is judged by its socket address, whatever X-Forwarded-For says", async () => {
    const shop = await shopWith({ TRUST_PROXY: "10.9.8.0/24, 192.0.2.250", LOGIN_FAILS_PER_EMAIL_AND_IP: "3" });
    const { email } = await createUser();
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i++) statuses.push((await signInFails(shop, email, `198.51.100.${i}`)).status);
    // Three failures from this socket address, then it waits: a new forged address each time walks past nothing.
    expect(statuses).toEqual([401, 401, 429, 429, 429]);
    stopShop(shop);
  }, 120_000);

  test("a request from a listed proxy (loopback) gives its client's address", async () => {
    const shop = await shopWith({ TRUST_PROXY: "loopback", LOGIN_FAILS_PER_EMAIL_AND_IP: "3" });
    const { email } = await createUser();
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i++) statuses.push((await signInFails(shop, email, `198.51.100.${i}`)).status);
    // Each forwarded address is a client of its own behind the proxy.
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    const id = (await fetch(`${shop.url}/blogs`, { headers: { "X-Request-Id": "from-the-proxy-1" } })).headers.get(
      "x-request-id",
    );
    expect(id).toBe("from-the-proxy-1");
    stopShop(shop);
  }, 120_000);

  test("a count of proxies still works, with a warning at start", async () => {
    const { shop, log } = await idleAndCountedProxyShop();
    expect(log()).toContain("TRUST_PROXY is a count of proxies");
    expect((await fetch(`${shop.url}/healthz`)).status).toBe(200);
  }, 120_000);
});
