/**
 * The server's shared page cache (app/utils/page-cache.server.ts): the rules on their own, with a
 * clock of our own, then over HTTP against the running shop.
 */
import { randomUUID } from "node:crypto";
import { request } from "node:http";
import { describe, expect, test } from "vitest";
import { Part } from "~/models/part.server";
import { bodyWithNonce, cacheDirective, PageCache } from "../../server/page-cache";
import { PUBLIC_CACHE_CONTROL } from "~/utils/cache.server";
import { createPart, createUser, sessionCookieHeader } from "../setup/factories";

const SHOP = process.env.SHOP_URL!;

describe("PageCache", () => {
  const publicHeaders = (extra: Record<string, string> = {}) =>
    new Headers({ "Cache-Control": "public, max-age=0, s-maxage=60, stale-while-revalidate=300", Vary: "Cookie", ...extra });
  const page = (body: string, nonce = "") => ({
    status: 200,
    headers: [...publicHeaders().entries()],
    body: Buffer.from(body),
    nonce,
  });
  const anonymous = { method: "GET", url: "/parts", headers: { host: "shop.example" } };

  test("keys only cookieless GETs, by variant, host and URL", () => {
    const cache = new PageCache({ maxSeconds: 5 });
    expect(cache.keyFor(anonymous, "browser")).toBe("browser|shop.example|/parts");
    expect(cache.keyFor({ ...anonymous, headers: { ...anonymous.headers, cookie: "__session=x" } })).toBeNull();
    expect(cache.keyFor({ ...anonymous, headers: { ...anonymous.headers, cookie: "anything=1" } })).toBeNull();
    expect(cache.keyFor({ ...anonymous, method: "POST" })).toBeNull();
    expect(cache.keyFor({ ...anonymous, method: "HEAD" })).toBeNull();
    expect(new PageCache({ maxSeconds: 0 }).keyFor(anonymous)).toBeNull();
  });

  test("stores only public 200s with an s-maxage that set no cookie and vary on nothing but Cookie", () => {
    const cache = new PageCache({ maxSeconds: 5 });
    expect(cache.storable(200, publicHeaders())).toBe(true);
    expect(cache.storable(200, new Headers({ "Cache-Control": PUBLIC_CACHE_CONTROL, Vary: "Cookie" }))).toBe(true);
    expect(cache.storable(404, publicHeaders())).toBe(false);
    expect(cache.storable(302, publicHeaders())).toBe(false);
    expect(cache.storable(200, publicHeaders({ "Set-Cookie": "toast=; Max-Age=0" }))).toBe(false);
    expect(cache.storable(200, new Headers({ "Cache-Control": "private, no-store" }))).toBe(false);
    expect(cache.storable(200, new Headers({ "Cache-Control": "public, max-age=60" }))).toBe(false);
    expect(cache.storable(200, publicHeaders({ Vary: "Cookie, Accept-Language" }))).toBe(false);
    expect(cacheDirective("public, s-maxage=60, stale-while-revalidate=300", "s-maxage")).toBe(60);
    expect(cacheDirective("public, max-age=0", "s-maxage")).toBeNull();
  });

  test("is fresh for min(s-maxage, maxSeconds), then stale for a while, then gone", () => {
    let now = 1_000_000;
    const cache = new PageCache({ maxSeconds: 5, maxStaleSeconds: 30, now: () => now });
    cache.store("k", cache.startRender(), page("<p>one</p>"));
    expect(cache.lookup("k")?.state).toBe("fresh");
    now += 4_999;
    expect(cache.lookup("k")).toMatchObject({ state: "fresh", ageSeconds: 4 });
    now += 1;
    expect(cache.lookup("k")?.state).toBe("stale");
    now += 29_999;
    expect(cache.lookup("k")?.state).toBe("stale");
    now += 1;
    expect(cache.lookup("k")).toBeNull();
    expect(cache.size).toBe(0);
  });

  test("a reload (Cache-Control: no-cache) is not answered from it", () => {
    const cache = new PageCache({ maxSeconds: 5 });
    cache.store("k", cache.startRender(), page("<p>one</p>"));
    expect(cache.lookup("k", { headers: { "cache-control": "no-cache" } })).toBeNull();
    expect(cache.lookup("k", { headers: { pragma: "no-cache" } })).toBeNull();
    expect(cache.lookup("k", { headers: {} })).not.toBeNull();
  });

  test("a write empties it, and a render that began before the write is not stored after it", () => {
    const cache = new PageCache({ maxSeconds: 5 });
    cache.store("a", cache.startRender(), page("<p>a</p>"));
    const before = cache.startRender();
    cache.clear();
    expect(cache.lookup("a")).toBeNull();
    cache.store("b", before, page("<p>old</p>"));
    expect(cache.lookup("b")).toBeNull();
    cache.store("b", cache.startRender(), page("<p>new</p>"));
    expect(cache.lookup("b")?.page.body.toString()).toBe("<p>new</p>");
  });

  test("keeps the most recently used entries within its bounds", () => {
    const cache = new PageCache({ maxSeconds: 5, maxEntries: 2, maxBodyBytes: 100 });
    cache.store("a", cache.startRender(), page("a"));
    cache.store("b", cache.startRender(), page("b"));
    cache.lookup("a");
    cache.store("c", cache.startRender(), page("c"));
    expect([cache.lookup("a"), cache.lookup("b"), cache.lookup("c")].map((hit) => hit?.page.body.toString() ?? null)).toEqual([
      "a",
      null,
      "c",
    ]);
    cache.store("big", cache.startRender(), page("x".repeat(101)));
    expect(cache.lookup("big")).toBeNull();
  });

  test("refreshes a stale entry once however many ask", async () => {
    const cache = new PageCache({ maxSeconds: 5 });
    let runs = 0;
    let release!: () => void;
    const refresh = () => {
      runs += 1;
      return new Promise<void>((resolve) => (release = resolve));
    };
    cache.refreshOnce("k", refresh);
    cache.refreshOnce("k", refresh);
    expect(runs).toBe(1);
    release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    cache.refreshOnce("k", refresh);
    expect(runs).toBe(2);
    release();
  });

  test("every answer carries its own nonce in place of the stored one", () => {
    const stored = { ...page('<script nonce="OLD+nonce/1==">a</script><script nonce="OLD+nonce/1==">b</script>', "OLD+nonce/1=="), storedAt: 0, freshUntil: 0, staleUntil: 0 };
    expect(bodyWithNonce(stored, "NEW").toString()).toBe('<script nonce="NEW">a</script><script nonce="NEW">b</script>');
  });
});

// --- Over HTTP --------------------------------------------------------------------------------------

const unique = () => `Cache${randomUUID().replace(/-/g, "").slice(0, 10)}`;

function nonceOf(response: Response) {
  return /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
}

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${SHOP}${path}`, { headers, redirect: "manual" });
  return { response, html: await response.text() };
}

/** Manage Products' price-and-stock form, posted by a new admin. */
async function saveAsAdmin(fields: { partId: string; price: string; stock: string; expectedStock: string }) {
  const admin = await createUser({ role: "admin" });
  return fetch(`${SHOP}/dashboard/manageProducts`, {
    method: "POST",
    redirect: "manual",
    headers: {
      Cookie: await sessionCookieHeader(admin.id),
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: SHOP,
    },
    body: new URLSearchParams({ intent: "update", ...fields }),
  });
}

describe("the page cache in the shop", () => {
  test("a second anonymous visitor gets the stored page, with a nonce of its own that its scripts carry", async () => {
    const word = unique();
    const first = await get(`/parts?q=${word}`);
    const second = await get(`/parts?q=${word}`);
    expect(first.response.headers.get("x-cache")).toBeNull();
    expect(second.response.headers.get("x-cache")).toBe("HIT");
    expect(second.response.headers.get("server-timing")).toMatch(/^db;dur=0\.0,/);
    expect(second.response.headers.get("cache-control")).toBe(PUBLIC_CACHE_CONTROL);

    const [firstNonce, secondNonce] = [nonceOf(first.response), nonceOf(second.response)];
    expect(firstNonce).toBeTruthy();
    expect(secondNonce).toBeTruthy();
    expect(secondNonce).not.toBe(firstNonce);
    // /parts' inline scripts must run under the answer's own policy, and no old nonce is left.
    const scriptNonces = [...second.html.matchAll(/<script[^>]* nonce="([^"]+)"/g)].map((match) => match[1]);
    expect(scriptNonces.length).toBeGreaterThan(0);
    expect(new Set(scriptNonces)).toEqual(new Set([secondNonce]));
    expect(second.html).not.toContain(firstNonce);
    expect(second.html.split(secondNonce!).join("N")).toBe(first.html.split(firstNonce!).join("N"));
  });

  test("signed-in visitors, visitors with any cookie and reloads are rendered, never served a stored copy", async () => {
    const word = unique();
    await get(`/parts?q=${word}`);
    expect((await get(`/parts?q=${word}`)).response.headers.get("x-cache")).toBe("HIT");

    const user = await createUser({ name: `Signed ${word}` });
    const signedIn = await get(`/parts?q=${word}`, { Cookie: await sessionCookieHeader(user.id) });
    expect(signedIn.response.headers.get("x-cache")).toBeNull();
    expect(signedIn.html).toContain(`Signed ${word}`);
    expect(signedIn.response.headers.get("cache-control")).toBe("private, no-store");

    const withCookie = await get(`/parts?q=${word}`, { Cookie: "something=else" });
    expect(withCookie.response.headers.get("x-cache")).toBeNull();
    const reload = await get(`/parts?q=${word}`, { "Cache-Control": "no-cache" });
    expect(reload.response.headers.get("x-cache")).toBeNull();
  });

  test("a change an admin saves shows to the next anonymous visitor at once", async () => {
    const word = unique();
    const part = await createPart({ name: `${word} Radiator`, priceCents: 1200, availableQuantity: 40 });
    await get(`/parts?q=${word}`);
    const cached = await get(`/parts?q=${word}`);
    expect(cached.response.headers.get("x-cache")).toBe("HIT");
    expect(cached.html).toContain("$12");

    const saved = await saveAsAdmin({ partId: part.id, price: "34", stock: "40", expectedStock: "40" });
    expect(saved.status).toBe(302);
    expect((await Part.findById(part.id).lean())?.priceCents).toBe(3400);

    const after = await get(`/parts?q=${word}`);
    expect(after.response.headers.get("x-cache")).toBeNull();
    expect(after.html).toContain("$34");
    expect(after.html).not.toContain("$12");
  });

  test("a change made behind the shop's back shows once the copy is stale: one answer stale, then fresh", async () => {
    const word = unique();
    const part = await createPart({ name: `${word} Gasket`, priceCents: 70_123 });
    await get(`/parts?q=${word}`);
    expect((await get(`/parts?q=${word}`)).html).toContain("$701.23");
    await Part.updateOne({ _id: part.id }, { $set: { priceCents: 90_456 } });
    expect((await get(`/parts?q=${word}`)).html).toContain("$701.23");

    await new Promise((resolve) => setTimeout(resolve, 5_100)); // PAGE_CACHE_SECONDS, 5 by default
    const stale = await get(`/parts?q=${word}`);
    expect(stale.response.headers.get("x-cache")).toBe("STALE");
    expect(stale.html).toContain("$701.23");
    // That answer started one render in the background; the next visitors get its result.
    await expect
      .poll(async () => {
        const next = await get(`/parts?q=${word}`);
        return `${next.response.headers.get("x-cache")} ${next.html.includes("$904.56") ? "new" : "old"} price`;
      })
      .toBe("HIT new price");
  });

  test("a refused write leaves it as it was", async () => {
    const word = unique();
    await get(`/parts?q=${word}`);
    const part = await createPart();
    const refused = await saveAsAdmin({ partId: part.id, price: "free", stock: "1", expectedStock: "1000" });
    expect(refused.status).toBe(400);
    expect((await get(`/parts?q=${word}`)).response.headers.get("x-cache")).toBe("HIT");
  });

  test("pages for another Host are kept apart from the shop's own", async () => {
    const word = unique();
    const shop = new URL(SHOP);
    // fetch() sends its own Host; node:http sends the one given.
    const status = await new Promise<number>((resolve, reject) => {
      request(
        { host: shop.hostname, port: shop.port, path: `/parts?q=${word}`, headers: { Host: `evil.example:${shop.port}` } },
        (response) => {
          response.resume();
          response.on("end", () => resolve(response.statusCode ?? 0));
        },
      )
        .on("error", reject)
        .end();
    });
    expect(status).toBe(200);
    expect((await get(`/parts?q=${word}`)).response.headers.get("x-cache")).toBeNull();
    expect((await get(`/parts?q=${word}`)).response.headers.get("x-cache")).toBe("HIT");
  });
});
