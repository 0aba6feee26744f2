/**
 * Fault test: a deploy under traffic. SIGTERM reaches the shop while 20 keep-alive connections
 * place orders: it exits 0 within its bound, every order it acknowledged exists, no unit of stock
 * is lost, and after the next start every order's email has gone out exactly once. And while 20
 * keep-alive connections load pages one after another: no request is reset, they keep their
 * connections through the drain, and every answer from the listener's close on says `Connection: close`. And behind a balancer that reads /healthz, with a new
 * connection per request: no request is reset; once the listener has closed, a connection is refused.
 */
import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Order } from "~/orders/model/schema.server";
import { Part } from "~/models/part.server";
import { createPart, createUser, sessionCookieHeader } from "../../setup/factories";
import {
  deliveriesSettled,
  killShop,
  ownDatabase,
  postForm,
  sleep,
  spawnShop,
  startCountingSmtp,
  waitHealthy,
  type ShopProcess,
} from "./fault-helpers";
import { addressForm, DETROIT } from "../../fixtures/addresses";

const work = mkdtempSync(path.join(tmpdir(), "shop-fault-shutdown-"));
const BOUND_MS = 8000;
const STOCK = 100_000;
let db: Awaited<ReturnType<typeof ownDatabase>>;
let smtp: Awaited<ReturnType<typeof startCountingSmtp>>;
const shops: ShopProcess[] = [];

beforeAll(async () => {
  db = await ownDatabase(work);
  smtp = await startCountingSmtp();
}, 60_000);

afterAll(async () => {
  for (const shop of shops) await killShop(shop);
  await smtp?.stop();
  await db?.restore();
  rmSync(work, { recursive: true, force: true });
});

const settings = () => ({
  SMTP_URL: smtp.url,
  SHUTDOWN_TIMEOUT_MS: String(BOUND_MS),
  JOBS_POLL_MS: "300",
  LOG_LEVEL: "info",
});

describe("SIGTERM during 20 keep-alive connections placing orders", () => {
  test("exits 0 within the bound; every acknowledged order exists, no stock leaks, each email once", async () => {
    const shop = await spawnShop(db.uri, settings());
    shops.push(shop);
    await waitHealthy(shop);
    const part = await createPart({ availableQuantity: STOCK, minOrderQuantity: 1 });
    const users = await Promise.all(Array.from({ length: 20 }, (_, i) => createUser({ name: `Deploy Buyer ${i}` })));
    const cookies = await Promise.all(users.map((user) => sessionCookieHeader(user.id)));

    const agent = new http.Agent({ keepAlive: true, maxSockets: 20 });
    let stop = false;
    let placed = 0;
    const unanswered: string[] = [];
    const statuses = new Map<number, number>();
    const worker = async (i: number) => {
      for (let n = 0; !stop; n++) {
        try {
          const answer = await postForm(
            `${shop.url}/parts/${part.id}`,
            {
              quantity: "1",
              phone: "555-0100",
              ...addressForm({ ...DETROIT, line1: `${i} Deploy Street`, line2: `call ${n}` }),
            },
            { cookie: cookies[i], agent, origin: `http://localhost:${shop.port}` },
          );
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          if (answer.status === 302) placed++;
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code ?? String(error);
          // A connection refused once the server stopped listening was never sent: a client retries it.
          if (code !== "ECONNREFUSED") unanswered.push(code);
          if (shop.child.exitCode !== null || shop.child.signalCode !== null) return;
          await sleep(20);
        }
      }
    };
    const workers = Promise.all(Array.from({ length: 20 }, (_, i) => worker(i)));
    // Traffic under way (the first orders warm the server up), then the deploy's SIGTERM.
    const warm = Date.now() + 30_000;
    while (placed < 60 && Date.now() < warm) await sleep(50);
    const placedBeforeSignal = placed;
    const signalledAt = Date.now();
    shop.child.kill("SIGTERM");
    const exit = await shop.exited;
    stop = true;
    await workers;
    agent.destroy();

    expect(placedBeforeSignal, JSON.stringify([...statuses, unanswered.slice(0, 3)])).toBeGreaterThan(0);
    expect(exit.code, shop.output()).toBe(0);
    expect(exit.at - signalledAt).toBeLessThan(BOUND_MS);
    expect(shop.output()).toContain("shutting down");
    // Every request was answered or refused before it was sent: none was cut off mid-way.
    expect(unanswered, JSON.stringify([...statuses])).toEqual([]);
    expect(
      [...statuses.keys()].every((status) => status === 302),
      JSON.stringify([...statuses]),
    ).toBe(true);

    const orders = await Order.find({ "lines.partId": part.id }).lean();
    expect(orders).toHaveLength(placed);
    const stock = (await Part.findById(part.id).lean())!.availableQuantity;
    expect(stock).toBe(STOCK - placed);

    // The next version starts: whatever mail was still waiting goes out, and nothing twice.
    const next = await spawnShop(db.uri, settings());
    shops.push(next);
    await waitHealthy(next);
    const placedMail = () => smtp.delivered.filter((mail) => / is placed$/.test(mail.subject));
    const deadline = Date.now() + 90_000;
    while (placedMail().length < placed && Date.now() < deadline) await sleep(500);
    // Every placed mail sent and no job left for one: a second sending could not come later.
    await expect.poll(() => deliveriesSettled("outboxes", { _id: /:placed$/ }), { timeout: 60_000 }).toBe(true);
    const subjects = placedMail().map((mail) => mail.subject);
    expect(subjects).toHaveLength(placed);
    expect(new Set(subjects).size).toBe(placed); // one per order, none twice
  }, 180_000);
});

/** A GET over `agent` that reports how it ended: an answer (status, Connection header) or an error code. */
function getPage(url: string, agent: http.Agent) {
  return new Promise<{ status: number; connection: string; reused: boolean } | { error: string; reused: boolean }>(
    (resolve) => {
      const request = http.get(url, { agent, headers: { Accept: "text/html" } }, (response) => {
        response.resume();
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            connection: String(response.headers.connection ?? ""),
            reused: request.reusedSocket,
          }),
        );
        response.on("error", (error: NodeJS.ErrnoException) =>
          resolve({ error: error.code ?? error.message, reused: request.reusedSocket }),
        );
      });
      request.on("error", (error: NodeJS.ErrnoException) =>
        resolve({ error: error.code ?? error.message, reused: request.reusedSocket }),
      );
    },
  );
}

describe("SIGTERM during 20 keep-alive connections loading pages", () => {
  test("no request that reached the shop is reset; answers from the listener's close on close their connection", async () => {
    const shop = await spawnShop(db.uri, settings());
    shops.push(shop);
    await waitHealthy(shop);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 20 });
    const pages = ["/", "/parts", "/blogs", "/login"];
    let signalledAt = 0;
    const before: number[] = [];
    const after: { sentAt: number; status: number; connection: string }[] = [];
    const failures: string[] = [];
    const worker = async (i: number) => {
      for (let n = 0; ; n++) {
        const sentAt = Date.now();
        const answer = await getPage(`${shop.url}${pages[(i + n) % pages.length]}`, agent);
        if ("error" in answer) {
          // Refused once the server stopped listening: never sent, a client sends it elsewhere.
          if (answer.error === "ECONNREFUSED") return;
          failures.push(`${answer.error}${answer.reused ? " on a reused connection" : ""}`);
          return;
        }
        if (signalledAt && sentAt > signalledAt) after.push({ sentAt, ...answer });
        else before.push(answer.status);
        // Some connections come back at once, some after a pause, as browsers and proxies do.
        if (i % 3 === 0) await sleep(((i + n) % 7) * 40);
      }
    };
    const workers = Promise.all(Array.from({ length: 20 }, (_, i) => worker(i)));
    while (before.length < 100) await sleep(20);
    signalledAt = Date.now();
    shop.child.kill("SIGTERM");
    const exit = await shop.exited;
    await workers;
    agent.destroy();

    expect(exit.code, shop.output()).toBe(0);
    expect(failures).toEqual([]);
    expect(before.every((status) => status === 200)).toBe(true);
    expect(after.every(({ status }) => status === 200)).toBe(true);
    // Through the drain the connections opened before the signal are kept; from the listener's
    // close on every answer closes its connection.
    const closedAt = listenerClosedAt(shop.output());
    expect(closedAt, shop.output()).toBeDefined();
    const afterClose = after.filter(({ sentAt }) => sentAt > closedAt!);
    expect(afterClose.length).toBeGreaterThan(0);
    for (const { status, connection } of afterClose)
      expect({ status, connection }).toEqual({ status: 200, connection: "close" });
  }, 60_000);
});

type Outcome = { sentAt: number; path: string } & ({ status: number; connection: string } | { error: string });

/** One GET on a connection of its own (`agent: false`), with how it ended. */
function getOnNewConnection(url: string): Promise<Outcome> {
  const sentAt = Date.now();
  const path = new URL(url).pathname;
  return new Promise((resolve) => {
    const fail = (error: NodeJS.ErrnoException) =>
      resolve({
        sentAt,
        path,
        error: error.code === "ECONNRESET" ? `${error.code} (${error.message})` : (error.code ?? error.message),
      });
    const request = http.get(url, { agent: false, headers: { Accept: "text/html" } }, (response) => {
      response.resume();
      response.on("end", () =>
        resolve({
          sentAt,
          path,
          status: response.statusCode ?? 0,
          connection: String(response.headers.connection ?? ""),
        }),
      );
      response.on("error", fail);
      response.on("aborted", () => fail(Object.assign(new Error("aborted"), { code: "ECONNRESET" })));
    });
    request.on("error", fail);
  });
}

/** When the shop logged that it stopped accepting connections (its JSON log line's time). */
function listenerClosedAt(output: string) {
  for (const line of output.split("\n")) {
    if (!line.includes("stopped accepting")) continue;
    try {
      return (JSON.parse(line) as { time: number }).time;
    } catch {
      // not a JSON line
    }
  }
  return undefined;
}

describe("SIGTERM during a new connection per request, behind a balancer that reads /healthz", () => {
  test("no request sent before the listener closes is reset; after it, a full answer or a refused connection", async () => {
    // The default drain (SHUTDOWN_DELAY_MS unset).
    const shop = await spawnShop(db.uri, settings());
    shops.push(shop);
    await waitHealthy(shop);
    const pages = ["/livez", "/parts", "/livez", "/login", "/blogs"];
    const outcomes: Outcome[] = [];
    const testEnds = Date.now() + 30_000;
    let signalledAt = 0;
    let outOfRotationAt = 0;
    const exited = () => shop.child.exitCode !== null || shop.child.signalCode !== null;

    // The balancer: asks /healthz every 100 ms and stops sending new requests once it is not 200.
    const balancer = (async () => {
      while (!outOfRotationAt && !exited() && Date.now() < testEnds) {
        const answer = await getOnNewConnection(`${shop.url}/healthz`);
        if (!("status" in answer) || answer.status !== 200) outOfRotationAt = Date.now();
        else await sleep(100);
      }
    })();
    // Traffic through it: 8 clients, each a new connection per request, back to back.
    const worker = async (i: number) => {
      for (let n = 0; !outOfRotationAt && Date.now() < testEnds && outcomes.length < 20_000; n++)
        outcomes.push(await getOnNewConnection(`${shop.url}${pages[(i + n) % pages.length]}`));
    };
    const workers = Promise.all(Array.from({ length: 8 }, (_, i) => worker(i)));
    // And a client that ignores the balancer (an old address in a cache): a request every 300 ms
    // from the signal on, until it is refused.
    const late = (async () => {
      while (!signalledAt) await sleep(10);
      while (!exited() && Date.now() < testEnds) {
        const answer = await getOnNewConnection(`${shop.url}/livez`);
        outcomes.push(answer);
        if ("error" in answer) return;
        await sleep(300);
      }
    })();

    while (outcomes.length < 200 && Date.now() < testEnds) await sleep(20);
    signalledAt = Date.now();
    shop.child.kill("SIGTERM");
    const exit = await shop.exited;
    await Promise.all([balancer, workers, late]);

    // The log's time is taken just after the listener closed: a request sent in the last few ms
    // before it may have reached the port after the close.
    const closedAt = listenerClosedAt(shop.output()) ?? signalledAt;
    const timeline = (list: Outcome[]) =>
      JSON.stringify(
        list.map((o) => ({ ...o, sentAt: o.sentAt - signalledAt })),
        null,
        0,
      );
    const resets = outcomes.filter((o) => "error" in o && o.error !== "ECONNREFUSED");
    const before = outcomes.filter((o) => o.sentAt < closedAt - 20);
    const after = outcomes.filter((o) => o.sentAt >= closedAt - 20);
    console.log(
      `connection per request: ${outcomes.length} requests, ${resets.length} reset, ` +
        `${outcomes.filter((o) => "error" in o && o.error === "ECONNREFUSED").length} refused, ` +
        `signal at 0 ms, out of rotation at ${outOfRotationAt - signalledAt} ms, ` +
        `listener closed at ${closedAt - signalledAt} ms; resets: ${timeline(resets)}`,
    );

    expect(exit.code, shop.output()).toBe(0);
    expect(exit.at - signalledAt).toBeLessThan(BOUND_MS);
    expect(resets, timeline(resets)).toEqual([]);
    // Before the close: every request answered in full (after the signal, closing its connection).
    const unanswered = before.filter((o) => !("status" in o) || o.status !== 200);
    expect(unanswered, timeline(unanswered)).toEqual([]);
    expect(
      before.filter((o) => o.sentAt > signalledAt).every((o) => "connection" in o && o.connection === "close"),
    ).toBe(true);
    // After it: an answer, or a connection refused before anything was sent.
    for (const outcome of after)
      expect("status" in outcome ? outcome.status : outcome.error, timeline([outcome])).toMatch(/^(200|ECONNREFUSED)$/);
    expect(after.some((o) => "error" in o && o.error === "ECONNREFUSED")).toBe(true);
  }, 90_000);
});
