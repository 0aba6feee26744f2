import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { listPartCards } from "~/models/part-listing.server";
import { Part } from "~/models/part.server";
import { loader as homeLoader } from "~/routes/_index";
import { loader as partsLoader } from "~/routes/parts._index";
import { loader as robotsLoader } from "~/routes/[robots.txt]";
import { loader as sitemapLoader } from "~/routes/[sitemap.xml]";
import { loader as sitemapFileLoader } from "~/routes/sitemaps.$file";
import { PRIVATE_CACHE_CONTROL, PUBLIC_CACHE_CONTROL, publicPageHeadersFunction } from "~/services/cache.server";
import { createUser, sessionCookieHeader } from "../setup/factories";
import { getRequest, loaderArgs, settle } from "../setup/requests";

const word = () => `Itg${randomUUID().replace(/-/g, "").slice(0, 10)}`;

async function addParts(prefix: string, prices: number[]) {
  const parts = [];
  for (const [index, priceCents] of prices.entries()) {
    const doc = await Part.create({
      name: `${prefix} Hose ${index}`,
      // The number's second piece starts with 1, 2, 3…: never the "0" of a name searched for below.
      partNumber: `IT-${index + 1}${randomUUID().slice(0, 7).toUpperCase()}`,
      description: `${"A long description of a coolant hose. ".repeat(10)}`,
      img: "/images/parts/pw-1010.svg",
      priceCents,
      availableQuantity: 500,
    });
    parts.push({ id: doc._id.toString(), name: doc.name, priceCents, partNumber: doc.partNumber });
  }
  return parts;
}

describe("listPartCards", () => {
  test("searches word starts of names in any case and part numbers by their start, as plain text", async () => {
    const prefix = word();
    const [first] = await addParts(prefix, [300, 100, 200]);
    expect((await listPartCards({ query: prefix.toUpperCase() })).total).toBe(3);
    expect((await listPartCards({ query: `  ${prefix.toLowerCase()}   hose 0 ` })).parts.map((p) => p.id)).toEqual([
      first.id,
    ]);
    // The start of a word, not its middle.
    expect((await listPartCards({ query: `${prefix} hos` })).total).toBe(3);
    expect((await listPartCards({ query: `${prefix} ose` })).total).toBe(0);
    const byNumber = await listPartCards({ query: first.partNumber.toLowerCase() });
    expect(byNumber.parts.map((p) => p.id)).toEqual([first.id]);
    // Each piece of a part number starts a word ("IT-1A2B" is "it" and "1a2b"), its middle does not.
    expect((await listPartCards({ query: first.partNumber.slice(3) })).parts.map((p) => p.id)).toEqual([first.id]);
    expect((await listPartCards({ query: first.partNumber.slice(5) })).parts.map((p) => p.id)).not.toContain(first.id);
    // Regular-expression syntax is punctuation, which search ignores: none of these throws, and
    // punctuation alone matches nothing rather than everything.
    for (const query of [`${prefix}.*`, `${prefix}|.`, "(", "[", "\\", "a{1,}", "(a+)+$", ".*", '{"$gt": ""}']) {
      const result = await listPartCards({ query });
      if (query.startsWith(prefix)) expect(result.total, query).toBe(3);
      else
        expect(
          result.parts.map((p) => p.name).filter((name) => name.startsWith(prefix)),
          query,
        ).toEqual([]);
    }
    expect((await listPartCards({ query: ".*" })).total).toBe(0);
  });

  test("sorts along price and age, and pages without overlap", async () => {
    const prefix = word();
    const parts = await addParts(prefix, [500, 100, 400, 200, 300]);
    const names = async (sort: "newest" | "price-asc" | "price-desc", page: number) =>
      (await listPartCards({ query: prefix, sort, page, perPage: 2 })).parts.map((p) => p.name);
    const ascending = [...parts].sort((a, b) => a.priceCents - b.priceCents).map((p) => p.name);
    expect([
      ...(await names("price-asc", 1)),
      ...(await names("price-asc", 2)),
      ...(await names("price-asc", 3)),
    ]).toEqual(ascending);
    expect([
      ...(await names("price-desc", 1)),
      ...(await names("price-desc", 2)),
      ...(await names("price-desc", 3)),
    ]).toEqual([...ascending].reverse());
    expect([...(await names("newest", 1)), ...(await names("newest", 2)), ...(await names("newest", 3))]).toEqual(
      parts.map((p) => p.name).reverse(),
    );
    expect(await names("newest", 4)).toEqual([]);
  });

  test("returns only what a card shows, with a short description", async () => {
    const prefix = word();
    await addParts(prefix, [100]);
    const { parts, total } = await listPartCards({ query: prefix });
    expect(total).toBe(1);
    expect(Object.keys(parts[0]).sort()).toEqual(
      [
        "availableQuantity",
        "backorderable",
        "brand",
        "category",
        "description",
        "id",
        "img",
        "leadTimeDays",
        "minOrderQuantity",
        "name",
        "partNumber",
        "priceCents",
        "prices",
        "restockOn",
        "volumeBreaks",
      ].sort(),
    );
    expect(parts[0].description.length).toBeLessThanOrEqual(111);
    expect(parts[0].description.endsWith("…")).toBe(true);
  });
});

describe("the parts loader", () => {
  test("answers an over-long search with 400 and a field error, searching nothing", async () => {
    const response = await settle(partsLoader(loaderArgs(getRequest(`/parts?q=${"x".repeat(101)}`))));
    expect(response.status).toBe(400);
    expect(response.headers.get("Cache-Control")).toBe(PRIVATE_CACHE_CONTROL);
    const body = await response.json();
    expect(body.parts).toEqual([]);
    expect(body.result.error.q).toEqual(["Search for 100 characters at most"]);
  });

  test("falls back to defaults for a made-up sort and page", async () => {
    const response = await settle(partsLoader(loaderArgs(getRequest("/parts?sort=%24where&page=1e9x"))));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.state.sort).toBe("newest");
    expect(body.state.page).toBe(1);
  });

  test("is public for visitors and private with a session cookie", async () => {
    const anonymous = await settle(partsLoader(loaderArgs(getRequest("/parts"))));
    expect(anonymous.headers.get("Cache-Control")).toBe(PUBLIC_CACHE_CONTROL);
    expect(anonymous.headers.get("Vary")).toBe("Cookie");
    const user = await createUser();
    const cookie = await sessionCookieHeader(user.id);
    const signedIn = await settle(partsLoader(loaderArgs(getRequest("/parts", { cookie }))));
    expect(signedIn.headers.get("Cache-Control")).toBe(PRIVATE_CACHE_CONTROL);
  });
});

describe("the parts loader's paging", () => {
  test("a cursor from the page before gives the same page as counting, and a forged one is ignored", async () => {
    const prefix = word();
    await addParts(
      prefix,
      Array.from({ length: 30 }, (_, index) => 100 + ((index * 7) % 30) * 10),
    );
    const load = async (search: string) => {
      const response = await settle(partsLoader(loaderArgs(getRequest(`/parts?q=${prefix}&${search}`))));
      expect(response.status, search).toBe(200);
      return (await response.json()) as { parts: { id: string }[]; cursors: { first: string; last: string } };
    };
    for (const sort of ["newest", "price-asc", "price-desc"]) {
      const first = await load(`sort=${sort}`);
      const counted = await load(`sort=${sort}&page=2`);
      const viaCursor = await load(`sort=${sort}&page=2&after=${first.cursors.last}`);
      expect(
        viaCursor.parts.map((p) => p.id),
        sort,
      ).toEqual(counted.parts.map((p) => p.id));
      expect(counted.parts).toHaveLength(12);
      const back = await load(`sort=${sort}&page=1&before=${counted.cursors.first}`);
      expect(
        back.parts.map((p) => p.id),
        sort,
      ).toEqual(first.parts.map((p) => p.id));
      const forged = await load(`sort=${sort}&page=2&after=${encodeURIComponent('{"$gt":""}')}`);
      expect(
        forged.parts.map((p) => p.id),
        sort,
      ).toEqual(counted.parts.map((p) => p.id));
    }
  });
});

describe("the public page headers", () => {
  const args = (loader: HeadersInit, parent: HeadersInit = {}) => ({
    loaderHeaders: new Headers(loader),
    parentHeaders: new Headers(parent),
    actionHeaders: new Headers(),
    errorHeaders: undefined,
  });

  test("keep the loader's public decision", () => {
    const headers = new Headers(publicPageHeadersFunction(args({ "Cache-Control": PUBLIC_CACHE_CONTROL })));
    expect(headers.get("Cache-Control")).toBe(PUBLIC_CACHE_CONTROL);
  });

  test("turn private when a cookie is being set (a toast consumed) or the loader said so", () => {
    const toast = new Headers(
      publicPageHeadersFunction(args({ "Cache-Control": PUBLIC_CACHE_CONTROL }, { "Set-Cookie": "toast=; Path=/" })),
    );
    expect(toast.get("Cache-Control")).toBe(PRIVATE_CACHE_CONTROL);
    const personal = new Headers(publicPageHeadersFunction(args({ "Cache-Control": PRIVATE_CACHE_CONTROL })));
    expect(personal.get("Cache-Control")).toBe(PRIVATE_CACHE_CONTROL);
    expect(new Headers(publicPageHeadersFunction(args({}))).get("Cache-Control")).toBe(PRIVATE_CACHE_CONTROL);
  });
});

describe("the home loader", () => {
  test("sends six parts and the reviews (inline when they come in time, else streamed), cut at 150 characters", async () => {
    const result = await homeLoader(loaderArgs(getRequest("/")));
    expect(result.data.parts.length).toBeLessThanOrEqual(6);
    const reviews = await result.data.reviews;
    expect(reviews.length).toBeLessThanOrEqual(3);
    for (const review of reviews) expect(review.description.length).toBeLessThanOrEqual(151);
    expect(new Headers(result.init?.headers).get("Cache-Control")).toBe(PUBLIC_CACHE_CONTROL);
  });
});

describe("robots.txt and sitemap.xml", () => {
  test("the sitemap index lists the public pages' file and parts files that list every part", async () => {
    const part = (await addParts(word(), [100]))[0];
    const index = await sitemapLoader();
    expect(index.headers.get("Content-Type")).toContain("application/xml");
    const xml = await index.text();
    expect(xml).toContain("<sitemapindex");
    const files = [...xml.matchAll(/<loc>(https?:\/\/[^<]+)<\/loc>/g)].map((match) => new URL(match[1]).pathname);
    expect(files[0]).toBe("/sitemaps/pages");
    const partFiles = files.slice(1);
    expect(partFiles.length).toBe(Math.ceil((await Part.estimatedDocumentCount()) / 10_000));
    expect(partFiles.every((file) => /^\/sitemaps\/parts-\d+$/.test(file))).toBe(true);

    const pages = await (await sitemapFileLoader(loaderArgs(getRequest("/sitemaps/pages"), { file: "pages" }))).text();
    expect(pages.match(/<loc>/g)).toHaveLength(4);
    expect(pages).toMatch(/<loc>https?:\/\/[^<]+\/parts<\/loc>/);
    let listed = "";
    for (const file of partFiles) {
      const name = file.split("/").pop()!;
      listed += await (await sitemapFileLoader(loaderArgs(getRequest(file), { file: name }))).text();
    }
    expect(listed.match(/<loc>/g)?.length).toBeGreaterThanOrEqual(await Part.countDocuments());
    expect(listed).toMatch(new RegExp(`<loc>https?://[^<]+/parts/${part.id}</loc>\\s*<lastmod>\\d{4}-`));
    for (const bad of ["parts-0", "parts-99999", "users", "parts-1x"]) {
      const response = await settle(sitemapFileLoader(loaderArgs(getRequest(`/sitemaps/${bad}`), { file: bad })));
      expect(response.status, bad).toBe(404);
    }

    const robots = await (await robotsLoader()).text();
    expect(robots).toMatch(/^Sitemap: https?:\/\/\S+\/sitemap\.xml$/m);
    expect(robots).toContain("Disallow: /dashboard");
  });
});
