/**
 * The outage guard's decision between a slow database and a frozen one (server/db-outage.ts), with
 * a database stand-in at its boundary: the heartbeat's probe and when the database last answered.
 * The fault tests (tests/integration/faults/) drive the same guard through a real shop.
 */
import type { ServerBuild } from "@remix-run/node";
import { describe, expect, test } from "vitest";
import { dbOutageGuard } from "../../server/db-outage";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A database stand-in: answers pings and notes answers until frozen. */
function fakeDatabase() {
  let frozen = false;
  let lastAnswer = Date.now();
  return {
    freeze: () => (frozen = true),
    thaw: () => (frozen = false),
    /** Something answered (another request's query). */
    answer: () => (lastAnswer = Date.now()),
    lastAnswerAt: () => lastAnswer,
    probe: async () => {
      if (frozen) {
        await sleep(300); // the probe's own deadline
        return false;
      }
      lastAnswer = Date.now();
      return true;
    },
  };
}

function guarded(loader: () => Promise<unknown>, database: ReturnType<typeof fakeDatabase>) {
  const lines: string[] = [];
  const outage = dbOutageGuard({
    isUnavailable: () => false,
    probe: database.probe,
    lastAnswerAt: database.lastAnswerAt,
    stallMs: 300,
    heartbeatMs: 50,
    probeMs: 100,
    logger: { warn: (line) => lines.push(line), info: (line) => lines.push(line) },
  });
  const build = outage.wrapBuild({
    routes: { page: { id: "page", path: "/", module: { default: () => null, loader } } },
  } as unknown as ServerBuild);
  const run = build.routes.page!.module.loader as unknown as () => Promise<unknown>;
  return { outage, run, lines };
}

describe("a slow database is not an outage; a frozen one is", () => {
  test("a query far slower than the stall deadline ends with its answer while the database answers pings", async () => {
    const database = fakeDatabase();
    const { outage, run, lines } = guarded(() => sleep(1500).then(() => "the slow answer"), database);
    outage.start();
    try {
      expect(await run()).toBe("the slow answer");
      expect(outage.down).toBe(false);
      expect(lines).toEqual([]);
    } finally {
      outage.stop();
    }
  });

  test("frozen: the waiting request and new ones are answered 503 with Retry-After at once; back once it answers", async () => {
    const database = fakeDatabase();
    const { outage, run, lines } = guarded(() => new Promise(() => {}), database);
    outage.start();
    try {
      database.freeze();
      const started = Date.now();
      const answer = await run().catch((error: unknown) => error);
      expect(answer).toBeInstanceOf(Response);
      expect((answer as Response).status).toBe(503);
      expect((answer as Response).headers.get("Retry-After")).toMatch(/^\d+$/);
      // The stall deadline, a heartbeat and the probe's own deadline, with room for a busy machine.
      expect(Date.now() - started).toBeLessThan(1500);
      expect(outage.down).toBe(true);
      const next = Date.now();
      expect(((await run().catch((error: unknown) => error)) as Response).status).toBe(503);
      expect(Date.now() - next).toBeLessThan(100);

      database.thaw();
      await expect.poll(() => outage.down, { timeout: 2000, interval: 20 }).toBe(false);
      expect(lines).toEqual([
        "database unreachable: pages and actions answer 503 until it is back",
        expect.stringMatching(/^database reachable again after \d+ s: serving again$/),
      ]);
    } finally {
      outage.stop();
    }
  });

  test("a ping stuck behind other work is not an outage while other queries still answer", async () => {
    const database = fakeDatabase();
    const { outage, run } = guarded(() => sleep(1200).then(() => "answered"), database);
    outage.start();
    database.freeze(); // pings time out...
    const others = setInterval(database.answer, 100); // ...but other queries keep answering
    try {
      expect(await run()).toBe("answered");
      expect(outage.down).toBe(false);
    } finally {
      clearInterval(others);
      outage.stop();
    }
  });
});
