/**
 * A request of a few bytes cannot stall the shop: every route module with a form (its action) or a
 * query it parses (its loader) is sent the attacks that once built arrays of millions of entries
 * (`x[5000000]=1`, `lines[400000].quantity=0`, `scopes[100000]=read`), tens of thousands of
 * fields, names nested too deep, Conform's own fields forged, and JSON built to be walked for long.
 * Each answer is a small, fast refusal that echoes nothing, and /livez answers throughout. The list
 * of routes comes from the route files, so a new form is covered the day it is added. The shop is
 * its own process, so /livez measures this file's attacks only.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { LocalDb } from "../../server/local-db";
import { startShop, type Shop } from "../../scripts/bench/shop";
import { Order } from "~/orders/model/schema.server";
import { Audit } from "~/models/audit.server";
import { Part } from "~/models/part.server";
import { User } from "~/models/user.server";
import { placeOrder } from "~/orders/checkout.server";
import { recordPayment } from "~/orders/service.server";
import { shipOrder } from "~/orders/warehouse.server";
import { getOrderById } from "~/orders/model/reads.server";
import { createKeyFor } from "~/services/api-keys.server";
import { createPart, createUser, sessionCookieHeader } from "../setup/factories";
import { routeModules } from "../setup/route-files";
import { DETROIT } from "../fixtures/addresses";

const work = mkdtempSync(path.join(tmpdir(), "shop-bounded-forms-"));
let shop: Shop;
const ids: Record<string, string> = {};
const cookies: { customer?: string; admin?: string } = {};
let apiToken = "";

/** The biggest answer a refusal may be: an error page, never a body's worth of echo. */
const MAX_ANSWER_BYTES = 64 * 1024;
/** Far below the seconds the attacks took before, far above a busy machine's hiccup. */
const MAX_ANSWER_MS = 1500;
const MAX_LIVEZ_MS = 1000;
/** The largest page of the shop is far below this; `x[5000000]` once made a 15 MB answer. */
const MAX_PAGE_BYTES = 512 * 1024;

const manyFields = Array.from({ length: 80_000 }, (_, i) => `f${i}=`).join("&");

/** What an attacker sends a form: each once built something huge from a few bytes. */
const FORM_ATTACKS: [label: string, body: string][] = [
  ["a large list index", "x[5000017]=1"],
  ["a line far past the last", "lines[400009].quantity=0"],
  ["scopes far past the list", "scopes[100003]=read"],
  ["80,000 distinct fields", manyFields],
  ["names nested deeper than any form", "a.b.c.d.e.f.g.h=1"],
  ["a name that is no name", "lines]]=1&a..b=2"],
  ["a very long name", `${"n".repeat(50_000)}=1`],
  [
    "Conform's list intent at a huge index",
    `__intent__=${encodeURIComponent(JSON.stringify({ type: "insert", payload: { name: "lines", index: 5_000_000 } }))}`,
  ],
  ["Conform's intent that is not JSON", "__intent__=%7Bnope"],
  [
    "Conform's list intent on a field that is no list",
    `email=a&intent=x&__intent__=${encodeURIComponent(JSON.stringify({ type: "remove", payload: { name: "email", index: 0 } }))}`,
  ],
  ["Conform's state of 200 KB", `__state__=${encodeURIComponent(JSON.stringify({ k: "s".repeat(200_000) }))}`],
];

const deepJson = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
const JSON_ATTACKS: [label: string, body: string][] = [
  ["JSON nested 100,000 deep", deepJson],
  ["JSON of 300,000 values", JSON.stringify({ lines: Array.from({ length: 300_000 }, () => 0) })],
  [
    "JSON with a key of 200 KB",
    JSON.stringify({ lines: [{ partNumber: "PW-1", quantity: 1, ["k".repeat(200_000)]: 1 }] }),
  ],
];

type Answer = { status: number; ms: number; bytes: number; text: string };

async function send(pathname: string, init: RequestInit & { headers?: Record<string, string> }): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(`${shop.url}${pathname}`, { redirect: "manual", ...init });
  const text = await response.text();
  return { status: response.status, ms: performance.now() - started, bytes: Buffer.byteLength(text), text };
}

/** A form posted as a browser posts it, signed in with `cookie` where given. */
const postForm = (pathname: string, body: string, cookie?: string) =>
  send(pathname, {
    method: "POST",
    body,
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: shop.url,
      ...(cookie ? { Cookie: cookie } : {}),
    },
  });

/** The route's URL with real ids where a route reads them (the attack must reach the form, not a 404). */
function concrete(url: string) {
  return url.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === "id" && url.includes("manageProducts")) return ids.part;
    if (name === "id" && url.includes("allUsers")) return ids.customer;
    if (name === "id" && url.includes("companies")) return ids.company;
    if (name === "id") return ids.order;
    if (name === "returnId") return ids.returnId ?? "000000000000000000000000";
    if (name === "kind") return "invoice";
    if (name === "intent") return "sign-out";
    if (name === "number") return "PW-1003";
    return "x";
  });
}

/** Who the route serves: the attack is sent as someone who may use the form. */
function audience(source: string): "admin" | "customer" | "anonymous" {
  if (/requireAdmin\(/.test(source)) return "admin";
  if (/require(Customer|User|UnpaidOrder)\w*\(/.test(source)) return "customer";
  return "anonymous";
}

/** What a form could have written: nothing changes under the attacks. */
async function written() {
  const [orders, users, parts, audit, order] = await Promise.all([
    Order.countDocuments(),
    User.countDocuments(),
    Part.countDocuments(),
    Audit.countDocuments(),
    Order.findById(ids.order).lean(),
  ]);
  return { orders, users, parts, audit, returns: order?.returns?.length ?? 0, status: order?.status };
}

/** /livez polled every 20 ms while `work` runs: the slowest answer. */
async function slowestLivezDuring(work: () => Promise<void>) {
  let running = true;
  let slowest = 0;
  const poll = (async () => {
    while (running) {
      const started = performance.now();
      await fetch(`${shop.url}/livez`);
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    await work();
  } finally {
    running = false;
    await poll;
  }
  return slowest;
}

/** Conform's own intents that a form may send (validate, remove): answered as the form's reply, never a 5xx. */
const MAY_BE_A_REPLY = new Set(["Conform's list intent on a field that is no list"]);

function expectRefused(answer: Answer, label: string) {
  const what = `${label}: ${answer.status} in ${Math.round(answer.ms)} ms, ${answer.bytes} bytes`;
  // A refusal (4xx), or a redirect where the route sends this visitor elsewhere before any form is read.
  const lowest = [...MAY_BE_A_REPLY].some((attack) => label.endsWith(attack)) ? 200 : 300;
  expect(answer.status >= lowest && answer.status < 500 && answer.status !== 304, what).toBe(true);
  expect(answer.ms, what).toBeLessThan(MAX_ANSWER_MS);
  expect(answer.bytes, what).toBeLessThan(MAX_ANSWER_BYTES);
  for (const echo of ["5000017", "400009", "100003", "f79999", "nnnnnnnnnn", "sssssssss", "kkkkkkkkkk"]) {
    expect(answer.text.includes(echo), `${what} echoes ${echo}`).toBe(false);
  }
}

beforeAll(async () => {
  const customer = await createUser({ name: "Bounded Buyer" });
  const admin = await createUser({ role: "admin" });
  ids.customer = customer.id;
  ids.company = customer.companyId!;
  const part = await createPart({ availableQuantity: 1000, minOrderQuantity: 100 });
  ids.part = part.id;
  const placed = await placeOrder({
    lines: [{ partId: part.id, quantity: 200 }],
    phone: "+1 555 0100",
    delivery: DETROIT,
    user: customer,
  });
  if (!placed.ok) throw new Error("not placed");
  ids.order = placed.order.id;
  const staff = { actor: { id: admin.id, email: admin.email } };
  const paid = await recordPayment(
    ids.order,
    { amountCents: placed.order.totalCents, method: "bank-transfer", receivedOn: new Date(), reference: "B-1" },
    staff,
  );
  if (!paid.ok) throw new Error(paid.message);
  const shipped = await shipOrder(
    ids.order,
    { carrier: "ups", trackingNumber: "1Z1", lines: [{ lineIndex: 0, quantity: 200 }] },
    { ...staff, current: await getOrderById(ids.order) },
  );
  if (!shipped.ok) throw new Error(shipped.message);
  cookies.customer = await sessionCookieHeader(customer.id);
  cookies.admin = await sessionCookieHeader(admin.id);
  const key = await createKeyFor(customer, { name: "bounded", scopes: ["read", "order"] });
  if (!key.ok) throw new Error(key.message);
  apiToken = key.token;

  shop = await startShop({
    work,
    db: { uri: process.env.MONGODB_URI! } as LocalDb,
    buildDir: process.env.BUILD_DIR!,
    extraEnv: { SESSION_SECRET: process.env.SESSION_SECRET! },
  });
}, 120_000);

afterAll(async () => {
  await shop?.stop();
  rmSync(work, { recursive: true, force: true });
});

const modules = routeModules().map((module) => ({ ...module, source: readFileSync(module.file, "utf8") }));
const withForms = modules.filter(({ source }) => /export (async function|const) action\b/.test(source));
/** Pages whose loader reads its query string as a form (the others only `get` single values). */
const parsingQueries = modules.filter(({ source }) =>
  /parsePartsSearch\(|parseForm\((params|searchParams|new URL)/.test(source),
);

describe("bounded forms", () => {
  test("the route list is read from the route files", () => {
    expect(parsingQueries.map(({ url }) => url)).toEqual(expect.arrayContaining(["/parts", "/dashboard/audit"]));
    const urls = withForms.map(({ url }) => url);
    for (const form of [
      "/login",
      "/signup",
      "/dashboard/orders/{id}/return",
      "/dashboard/apiKeys",
      "/dashboard/cart",
    ]) {
      expect(urls).toContain(form);
    }
    expect(withForms.length).toBeGreaterThan(40);
  });

  test("no route or service parses a form on the server but through parseForm (parseWithZod only validates in the browser)", () => {
    const services = readdirSync(path.resolve(import.meta.dirname, "../../app/services")).map((name) =>
      readFileSync(path.resolve(import.meta.dirname, "../../app/services", name), "utf8"),
    );
    const unbounded = [
      ...modules.map(({ entry, source }) => [entry, source]),
      ...services.map((source) => ["a service", source]),
    ].flatMap(([where, source]) =>
      source
        .split("\n")
        .filter((line) => /parseWithZod\(/.test(line) && !/onValidate|^import/.test(line.trim()))
        .map((line) => `${where}: ${line.trim()}`),
    );
    expect(unbounded).toEqual([]);
  });

  test("every form action refuses each attack fast, small and without echo, and /livez keeps answering", async () => {
    const answers: [string, Answer][] = [];
    const before = await written();
    const slowest = await slowestLivezDuring(async () => {
      for (const { url, source } of withForms) {
        if (url.startsWith("/api/") || url === "/webhooks/stripe") continue; // JSON: the next test
        const who = audience(source);
        const cookie = who === "anonymous" ? undefined : cookies[who];
        for (const [label, body] of FORM_ATTACKS) {
          const answer = await postForm(concrete(url), body, cookie);
          answers.push([`POST ${url} (${who}) ${label}`, answer]);
        }
      }
    });
    const times = answers.map(([, answer]) => answer.ms).sort((a, b) => a - b);
    console.log(
      `${answers.length} form attacks: median ${Math.round(times[times.length >> 1])} ms, slowest ${Math.round(times.at(-1)!)} ms; slowest /livez ${Math.round(slowest)} ms`,
    );
    for (const [label, answer] of answers) expectRefused(answer, label);
    expect(await written()).toEqual(before);
    // The attacks reach the forms: most are refused by the bound itself, not by a redirect.
    expect(answers.filter(([, answer]) => answer.status === 400 || answer.status === 413).length).toBeGreaterThan(
      answers.length / 2,
    );
    expect(slowest, `the slowest /livez took ${Math.round(slowest)} ms`).toBeLessThan(MAX_LIVEZ_MS);
  }, 240_000);

  test("with JavaScript on (single fetch), the return form and sign-in get the same refusal", async () => {
    for (const [pathname, cookie] of [
      [`/dashboard/orders/${ids.order}/return.data`, cookies.customer],
      ["/login.data", undefined],
    ] as const) {
      for (const [label, body] of FORM_ATTACKS) {
        const answer = await postForm(pathname, body, cookie);
        expectRefused(answer, `${pathname} ${label}`);
      }
    }
  });

  test("every page that parses its query string refuses the same attacks in the URL", async () => {
    const slowest = await slowestLivezDuring(async () => {
      for (const { url, source } of parsingQueries) {
        if (url.startsWith("/api/")) continue;
        const who = audience(source);
        const cookie = who === "anonymous" ? undefined : cookies[who];
        for (const [label, query] of FORM_ATTACKS.filter(([, body]) => body.length < 4000)) {
          const answer = await send(`${concrete(url)}?${query}`, { headers: cookie ? { Cookie: cookie } : {} });
          expect(answer.status, `GET ${url} ${label}`).not.toBe(500);
          expect(answer.ms, `GET ${url} ${label}`).toBeLessThan(MAX_ANSWER_MS);
          // A page may show its own address (a form posting back to it), never a list built from it.
          expect(answer.bytes, `GET ${url} ${label}`).toBeLessThan(MAX_PAGE_BYTES);
        }
      }
    });
    expect(slowest).toBeLessThan(MAX_LIVEZ_MS);
  }, 120_000);

  test("the API refuses JSON built to be walked for long, with a short problem", async () => {
    const before = await Order.countDocuments();
    for (const [label, body] of JSON_ATTACKS) {
      const answer = await send("/api/v1/orders", {
        method: "POST",
        body,
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${apiToken}` },
      });
      expectRefused(answer, label);
      expect([400, 413], label).toContain(answer.status);
      expect(answer.text).toMatch(/"detail"/);
    }
    expect(await Order.countDocuments()).toBe(before);
  });
});
