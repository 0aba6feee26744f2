/**
 * The outage guard's decision between a slow database and a frozen one (server/db-outage.ts), with
 * a database stand-in at its boundary: the heartbeat's probe and when the database last answered.
 * The fault tests (tests/integration/faults/) drive the same guard through a real shop.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { stat } from "node:fs";
import net from "node:net";
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

  test("a process that could not run for longer than the stall deadline is not a frozen database", async () => {
    // The database: another process that answers every ping at once.
    const echo = spawn(
      "node",
      [
        "-e",
        "require('net').createServer((s) => s.on('data', (d) => s.write(d))).listen(0, '127.0.0.1', function () { console.log(this.address().port) })",
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    try {
      const [port] = (await once(echo.stdout!, "data")) as [Buffer];
      const socket = net.connect(Number(String(port).trim()), "127.0.0.1");
      await once(socket, "connect");
      let lastAnswer = Date.now();
      let stalls = 0;
      // A ping the way the driver sends it: its socket timeout is a timer of the stall deadline,
      // and a timer late by a stall runs before the answer already waiting to be read.
      const probe = () =>
        new Promise<boolean>((resolve) => {
          const timeout = setTimeout(() => {
            socket.off("data", answered);
            resolve(false);
          }, 300);
          const answered = () => {
            clearTimeout(timeout);
            lastAnswer = Date.now();
            resolve(true);
          };
          socket.once("data", answered);
          socket.write("ping");
          // The process does not run for 0.7 s (a starved host), inside an I/O callback, so
          // that the next thing the event loop does is run its timers.
          if (stalls++ < 3) stat(".", () => void busyWait(700));
        });
      const lines: string[] = [];
      const outage = dbOutageGuard({
        isUnavailable: () => false,
        probe,
        lastAnswerAt: () => lastAnswer,
        stallMs: 300,
        heartbeatMs: 50,
        logger: { warn: (line) => lines.push(line), info: (line) => lines.push(line) },
      });
      outage.start();
      try {
        await sleep(3000);
        expect(stalls).toBeGreaterThan(3);
        expect(lines).toEqual([]);
        expect(outage.down).toBe(false);
      } finally {
        outage.stop();
        socket.destroy();
      }
    } finally {
      echo.kill("SIGKILL");
    }
  });
});

function busyWait(ms: number) {
  const end = Date.now() + ms;
  while (Date.now() < end);
}
