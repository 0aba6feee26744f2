/**
 * Traces (docs/monitoring.md, "Traces"): with OTEL_EXPORTER_OTLP_ENDPOINT set, the shop sends each
 * request's trace to an OTLP collector: the request's span, a span per loader and action of the route
 * it reached, and the database commands under them; its request log line names the same trace. The
 * query string stays out, as it does of the logs. Unset, no module of OpenTelemetry is loaded.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { LocalDb } from "../../server/local-db";
import { startShop, type Shop } from "../../scripts/bench/shop";
import { createPart, createUser, sessionCookieHeader } from "../setup/factories";

type Attribute = { key: string; value: { stringValue?: string; intValue?: number | string } };
type Span = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Attribute[];
  /** The instrumentation that made it (its scope), and the service it came from (its resource). */
  scope: string;
  service: string | undefined;
};
const SERVER = 2;
const MONGODB = "@opentelemetry/instrumentation-mongodb";

const work = mkdtempSync(path.join(tmpdir(), "shop-tracing-"));
const db = { uri: process.env.MONGODB_URI! } as LocalDb;
const buildDir = process.env.BUILD_DIR!;
const shops: Shop[] = [];

/**
 * Loaded before the shop (node --require): at exit, writes the path of every module the process
 * loaded through Node's CommonJS loader (OpenTelemetry's packages, required or imported, are there).
 */
const moduleList = path.join(work, "module-list.cjs");
writeFileSync(
  moduleList,
  'process.on("exit", () => require("node:fs").writeFileSync(process.env.MODULE_LIST_FILE, Object.keys(require.cache).join("\\n")));\n',
);

/** A collector as far as the shop can tell: OTLP/HTTP with JSON bodies, on 127.0.0.1. */
async function startCollector() {
  const spans: Span[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.method === "POST" && req.url === "/v1/traces") {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        for (const resourceSpans of body.resourceSpans ?? []) {
          const service = valueOf(resourceSpans.resource?.attributes ?? [], "service.name");
          for (const scopeSpans of resourceSpans.scopeSpans ?? [])
            for (const span of scopeSpans.spans ?? []) spans.push({ ...span, scope: scopeSpans.scope?.name, service });
        }
      }
      res.writeHead(200, { "Content-Type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function valueOf(attributes: Attribute[], key: string) {
  const value = attributes.find((attribute) => attribute.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : String(value.intValue));
}

/** A shop of the suite's build on this file's database; its request log kept, its modules listed at exit. */
async function shopWith(extraEnv: Record<string, string>) {
  const dir = path.join(work, String(shops.length));
  let log = "";
  const shop = await startShop({
    work: dir,
    db,
    buildDir,
    nodeArgs: ["--require", moduleList],
    extraEnv: {
      SESSION_SECRET: process.env.SESSION_SECRET!,
      MODULE_LIST_FILE: path.join(work, `modules-${shops.length}.txt`),
      ...extraEnv,
    },
    onLog: (chunk) => (log += chunk),
  });
  shops.push(shop);
  return {
    shop,
    /** The request's own line of the log (written once its answer has ended). */
    async logLineOf(requestId: string) {
      return until(() =>
        log
          .split("\n")
          .filter((line) => line.includes(requestId))
          .map((line) => JSON.parse(line) as { req?: { id?: string }; res?: unknown; trace_id?: string })
          .find((line) => line.req?.id === requestId && line.res !== undefined),
      );
    },
    /** Stops the shop and names the OpenTelemetry packages it had loaded. */
    async openTelemetryLoaded() {
      await shop.stop();
      const modules = readFileSync(shop.env.MODULE_LIST_FILE, "utf8").split("\n");
      return [...new Set(modules.flatMap((file) => /node_modules\/(@opentelemetry\/[^/]+)\//.exec(file)?.[1] ?? []))];
    },
  };
}

/** What `find` returns once it returns something, within 15 s. */
async function until<T>(find: () => T | undefined): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error("not there after 15 s");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

afterAll(async () => {
  await Promise.all(shops.map((shop) => shop.stop()));
  rmSync(work, { recursive: true, force: true });
});

describe("with OTEL_EXPORTER_OTLP_ENDPOINT set", () => {
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let traced: Awaited<ReturnType<typeof shopWith>>;
  beforeAll(async () => {
    collector = await startCollector();
    traced = await shopWith({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      // Spans go out every 0.1 s instead of every 5 s.
      OTEL_BSP_SCHEDULE_DELAY: "100",
    });
  }, 120_000);
  afterAll(() => collector.close());

  /** The trace of the request whose server span is named `name`, once its `handlerSpan` has arrived too. */
  async function traceOf(name: string, handlerSpan: string) {
    const server = await until(() => collector.spans.find((span) => span.kind === SERVER && span.name === name));
    await until(() => collector.spans.find((span) => span.traceId === server.traceId && span.name === handlerSpan));
    const spans = collector.spans.filter((span) => span.traceId === server.traceId);
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    const ancestors = (span: Span) => {
      const chain: Span[] = [];
      for (let parent = byId.get(span.parentSpanId ?? ""); parent; parent = byId.get(parent.parentSpanId ?? ""))
        chain.push(parent);
      return chain;
    };
    const handler = spans.find((span) => span.name === handlerSpan)!;
    return { server, handler, spans, ancestors };
  }

  test("a part's page: the request, its route's loader, and the database commands under that loader", async () => {
    const [part, user] = await Promise.all([createPart(), createUser()]);
    // A query string may carry a token (a reset link's): it stays out of the trace as out of the log.
    const secret = randomBytes(8).toString("hex");
    const response = await fetch(`${traced.shop.url}/parts/${part.id}?ref=${secret}`, {
      headers: { Cookie: await sessionCookieHeader(user.id) },
    });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    const requestId = response.headers.get("x-request-id")!;

    const trace = await traceOf("GET routes/parts.$id", "routes/parts.$id loader");
    expect(trace.server.parentSpanId || undefined).toBeUndefined();
    expect(trace.server.service).toBe("partsworks-shop");
    expect(valueOf(trace.server.attributes, "http.route")).toBe("routes/parts.$id");
    expect(valueOf(trace.server.attributes, "http.response.status_code")).toBe("200");
    expect(valueOf(trace.server.attributes, "url.path")).toBe(`/parts/${part.id}`);
    expect(trace.ancestors(trace.handler)).toContain(trace.server);
    expect(valueOf(trace.handler.attributes, "remix.route.id")).toBe("routes/parts.$id");
    // The root route's loader ran for the same request, in the same trace.
    expect(trace.spans.map((span) => span.name)).toContain("root loader");

    const commands = trace.spans.filter((span) => span.scope === MONGODB && span.parentSpanId === trace.handler.spanId);
    expect(commands.length).toBeGreaterThan(0);
    expect(commands.map((span) => valueOf(span.attributes, "db.collection.name"))).toContain("parts");
    // Commands are shown without their values.
    for (const span of commands) expect(valueOf(span.attributes, "db.query.text") ?? "").not.toContain(part.id);

    expect(JSON.stringify(trace.spans)).not.toContain(secret);
    const line = await traced.logLineOf(requestId);
    expect(line.trace_id).toBe(trace.server.traceId);
  });

  test("a sign-in: the POST, the route's action, and the database commands under that action", async () => {
    const user = await createUser();
    const response = await fetch(`${traced.shop.url}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: traced.shop.url },
      body: new URLSearchParams({ email: user.email, password: user.password, redirectTo: "/dashboard" }),
    });
    expect(response.status).toBe(302);
    const requestId = response.headers.get("x-request-id")!;

    const trace = await traceOf("POST routes/login", "routes/login action");
    expect(trace.ancestors(trace.handler)).toContain(trace.server);
    const commands = trace.spans.filter((span) => span.scope === MONGODB && span.parentSpanId === trace.handler.spanId);
    expect(commands.map((span) => valueOf(span.attributes, "db.collection.name"))).toContain("users");
    expect(JSON.stringify(commands)).not.toContain(user.email);

    const line = await traced.logLineOf(requestId);
    expect(line.trace_id).toBe(trace.server.traceId);
  });

  test("the probes (/healthz, /livez, /metrics) are not traced", async () => {
    for (const probe of ["/healthz", "/livez"]) expect((await fetch(`${traced.shop.url}${probe}`)).status).toBe(200);
    const page = await fetch(`${traced.shop.url}/parts`);
    await page.arrayBuffer();
    await traceOf("GET routes/parts._index", "routes/parts._index loader");
    expect(collector.spans.map((span) => valueOf(span.attributes, "url.path"))).not.toContain("/healthz");
    expect(collector.spans.map((span) => valueOf(span.attributes, "url.path"))).not.toContain("/livez");
  });

  // prom-client loads OpenTelemetry's API for itself (its exemplars), tracing or not: a few
  // functions that do nothing while no SDK registers with them.
  test("unset, nothing of OpenTelemetry is loaded but the API prom-client loads", async () => {
    // The same check finds them in the traced shop.
    expect(await traced.openTelemetryLoaded()).toEqual(
      expect.arrayContaining(["@opentelemetry/sdk-node", "@opentelemetry/instrumentation-mongodb"]),
    );

    const plain = await shopWith({ OTEL_EXPORTER_OTLP_ENDPOINT: "" });
    const [part, user] = await Promise.all([createPart(), createUser()]);
    const page = await fetch(`${plain.shop.url}/parts/${part.id}`, {
      headers: { Cookie: await sessionCookieHeader(user.id) },
    });
    expect(page.status).toBe(200);
    await page.arrayBuffer();
    const line = await plain.logLineOf(page.headers.get("x-request-id")!);
    expect(line.trace_id).toBeUndefined();
    const loaded = await plain.openTelemetryLoaded();
    expect(loaded.filter((name) => name !== "@opentelemetry/api")).toEqual([]);
  }, 120_000);
});

test("inSpan, with tracing off, only calls its function: its value and its error come through", async () => {
  const { inSpan } = await import("~/services/tracing.server");
  await expect(inSpan("reserve-stock", { "workflow.step": "reserve-stock" }, async () => 42)).resolves.toBe(42);
  const failure = new Error("declined");
  await expect(
    inSpan("charge", {}, async () => {
      throw failure;
    }),
  ).rejects.toBe(failure);
});
