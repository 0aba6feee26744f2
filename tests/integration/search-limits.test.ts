/**
 * Text searches are counted per client address on /parts and per key on /api/v1/parts; past the
 * limit a search waits (429 with Retry-After, a page or a problem that says why), while browsing
 * without words goes on. The same search asked again, whatever its case and spacing, is answered
 * from the kept answer: not counted, and without the database's newer parts until the answer goes.
 * On a shop of its own, started with a limit of three searches a minute.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { LocalDb } from "../../server/local-db";
import { startShop, type Shop } from "../../scripts/bench/shop";
import { createApiKey } from "~/models/api-key.server";
import { THROTTLE_COLLECTION } from "~/services/rate-limit.server";
import { createPart, createUser } from "../setup/factories";

const work = mkdtempSync(path.join(tmpdir(), "shop-search-limits-"));
let shop: Shop;

beforeAll(async () => {
  // The suite's shop shares this database and searches from the same address: its counts start afresh.
  await mongoose.connection.collection(THROTTLE_COLLECTION).deleteMany({ key: /^searches_minute:/ });
  shop = await startShop({
    work,
    db: { uri: process.env.MONGODB_URI! } as LocalDb,
    buildDir: process.env.BUILD_DIR!,
    extraEnv: { SESSION_SECRET: process.env.SESSION_SECRET!, SEARCHES_PER_MINUTE: "3", SEARCH_CACHE_SECONDS: "30" },
  });
}, 120_000);

afterAll(async () => {
  await shop?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** A word no other part has, so each test's searches are its own. */
const newWord = () => `zq${randomBytes(4).toString("hex")}`;

describe("/parts?q=", () => {
  test("a fourth different search in a minute from one address waits; the same search again is answered from the kept one", async () => {
    const word = newWord();
    await createPart({ name: `Gasket ${word}` });
    const search = (q: string) => fetch(`${shop.url}/parts?q=${encodeURIComponent(q)}`, { redirect: "manual" });

    for (const q of [word, `${word} hose`, `${word} clamp`]) expect((await search(q)).status, q).toBe(200);
    const refused = await search(`${word} pump`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.headers.get("cache-control")).toBe("private, no-store");
    const page = await refused.text();
    expect(page).toContain("Too many searches from your network just now. Please search again in 1 minute");
    expect(page).toContain("Searching is paused for a moment.");

    // Browsing without words is not a search: it goes on.
    expect((await fetch(`${shop.url}/parts`)).status).toBe(200);
    // The first search again, typed otherwise: the kept answer, not counted, so not refused; a part
    // added since (straight into the database) is not in it yet.
    await createPart({ name: `Hose ${word}` });
    const again = await search(`  ${word.toUpperCase()} `);
    expect(again.status).toBe(200);
    const html = await again.text();
    expect(html).toContain(`Gasket ${word}`);
    expect(html).not.toContain(`Hose ${word}`);
  });
});

describe("GET /api/v1/parts?q=", () => {
  test("a fourth different search in a minute with one key is a 429 problem; the same search again is answered", async () => {
    const word = newWord();
    await createPart({ name: `Bracket ${word}` });
    const user = await createUser();
    const { token } = await createApiKey({
      ownerId: user.id,
      companyId: user.companyId,
      name: "ERP",
      scopes: ["read"],
    });
    const search = (q: string) =>
      fetch(`${shop.url}/api/v1/parts?q=${encodeURIComponent(q)}`, { headers: { Authorization: `Bearer ${token}` } });

    for (const q of [word, `${word} hose`, `${word} clamp`]) expect((await search(q)).status, q).toBe(200);
    const refused = await search(`${word} pump`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(
      /^Too many searches with this key: at most 3 a minute\. Try again in \d+ s\.$/,
    );
    // Another key has searches of its own.
    const other = await createApiKey({ ownerId: user.id, companyId: user.companyId, name: "Other", scopes: ["read"] });
    const elsewhere = await fetch(`${shop.url}/api/v1/parts?q=${word}%20belt`, {
      headers: { Authorization: `Bearer ${other.token}` },
    });
    expect(elsewhere.status).toBe(200);

    const again = await search(word.toUpperCase());
    expect(again.status).toBe(200);
    const body = (await again.json()) as { data: { name: string }[] };
    expect(body.data.map((part) => part.name)).toContain(`Bracket ${word}`);
  });
});
