import { describe, expect, test } from "vitest";
import { Part } from "~/models/part.server";
import { dbTime, newTiming, serverTimingHeader, withTiming } from "../../server/timing";
import { parseServerTiming } from "../../scripts/bench/stats";
import { createPart } from "../setup/factories";

const SHOP_URL = process.env.SHOP_URL ?? "http://localhost:3000";
const HEADER = /^db;dur=\d+\.\d, render;dur=\d+\.\d, total;dur=\d+\.\d$/;

describe("Server-Timing", () => {
  test("database time is counted against the request that ran the query, and only while it runs", async () => {
    const part = await createPart();
    const timing = newTiming();
    const before = performance.now();
    await withTiming(timing, async () => await Part.findById(part.id).lean());
    const wall = performance.now() - before;
    expect(timing.inFlight).toBe(0);
    expect(timing.db).toBeGreaterThan(0);
    expect(timing.db).toBeLessThanOrEqual(wall);

    // A query outside any request counts nowhere.
    const idle = dbTime(timing);
    await Part.findById(part.id).lean();
    expect(dbTime(timing)).toBe(idle);
  });

  test("parallel queries of one request are not counted twice", async () => {
    await createPart();
    const timing = newTiming();
    const before = performance.now();
    await withTiming(timing, async () =>
      Promise.all(Array.from({ length: 8 }, async () => await Part.find().sort({ createdAt: -1 }).limit(5).lean())),
    );
    const wall = performance.now() - before;
    expect(timing.inFlight).toBe(0);
    expect(timing.db).toBeGreaterThan(0);
    expect(timing.db).toBeLessThanOrEqual(wall);
  });

  test("a failing operation still closes its database time", async () => {
    const timing = newTiming();
    await expect(
      withTiming(timing, async () => await Part.create({ name: "No price", partNumber: "NOPRICE-1" })),
    ).rejects.toThrow();
    await expect(withTiming(timing, async () => await Part.findById("not-an-id").lean())).rejects.toThrow();
    expect(timing.inFlight).toBe(0);
  });

  test("the header splits the total into db and render", () => {
    const timing = newTiming();
    timing.db = 2;
    const header = serverTimingHeader(timing, timing.start + 5);
    expect(header).toBe("db;dur=2.0, render;dur=3.0, total;dur=5.0");
  });

  test.each(["/", "/this-page-does-not-exist"])("GET %s answers with a Server-Timing header", async (path) => {
    const response = await fetch(new URL(path, SHOP_URL), { redirect: "manual" });
    const header = response.headers.get("server-timing") ?? "";
    expect(header).toMatch(HEADER);
    const { db, render, total } = parseServerTiming(header);
    expect(db + render).toBeCloseTo(total, 0);
    await response.arrayBuffer();
  });

  test("the home page's database time is more than zero: its queries are seen", async () => {
    await createPart();
    const response = await fetch(new URL("/", SHOP_URL));
    const { db } = parseServerTiming(response.headers.get("server-timing"));
    expect(db).toBeGreaterThan(0);
    await response.arrayBuffer();
  });
});
