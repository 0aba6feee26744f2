/**
 * The API order benchmark's load, meant to run in its own process (pinned to another CPU than the
 * server): `tsx scripts/bench/api-orders.ts '<json options>'`. Many customers, each with their own
 * API key, place orders with `POST /api/v1/orders` (lines by part number and quantity, a fresh
 * Idempotency-Key per order) at the same time, for a fixed time. Prints one JSON object in the shape
 * of the screen's order benchmark (scripts/bench/orders.ts): a 201 is a placed order.
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { OrderLoadResult } from "./orders";
import { round, summary } from "./stats";

export type ApiOrderLoadOptions = {
  baseUrl: string;
  /** One API key (with the `order` scope) per customer; each connection is one customer. */
  apiKeys: string[];
  parts: { id: string; partNumber: string }[];
  quantity: number;
  duration: number;
};

export type ApiOrderLoadResult = OrderLoadResult & {
  /** Problem titles of the answers that placed nothing, counted (a 409 when a part sells out). */
  refusals: Record<string, number>;
};

function postJson(agent: http.Agent, url: URL, body: string, headers: Record<string, string>) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: "POST",
        agent,
        headers: {
          ...headers,
          "Content-Type": "application/json",
          Accept: "application/json",
          "Content-Length": Buffer.byteLength(body),
        },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
        response.on("error", reject);
      },
    );
    request.setTimeout(30_000, () => request.destroy(new Error("timeout")));
    request.on("error", reject);
    request.end(body);
  });
}

function problemTitle(body: string) {
  try {
    const parsed = JSON.parse(body) as { title?: string; detail?: string };
    return parsed.detail ?? parsed.title ?? "no title";
  } catch {
    return "not JSON";
  }
}

export async function placeApiOrders(options: ApiOrderLoadOptions): Promise<ApiOrderLoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.apiKeys.length });
  const url = new URL("/api/v1/orders", options.baseUrl);
  const latencies: number[] = [];
  const status: Record<string, number> = {};
  const placedUnits: Record<string, number> = {};
  const refusals: Record<string, number> = {};
  let errors = 0;
  let placed = 0;
  const started = performance.now();
  const deadline = started + options.duration * 1000;

  async function customer(index: number) {
    const authorization = `Bearer ${options.apiKeys[index]}`;
    let turn = index;
    while (performance.now() < deadline) {
      const part = options.parts[turn++ % options.parts.length];
      const body = JSON.stringify({
        lines: [{ partNumber: part.partNumber, quantity: options.quantity }],
        phone: "555-0100",
        address: `${index + 1} Benchmark Avenue, Springfield`,
      });
      const sent = performance.now();
      try {
        const answer = await postJson(agent, url, body, {
          Authorization: authorization,
          "Idempotency-Key": randomUUID(),
        });
        latencies.push(performance.now() - sent);
        status[answer.status] = (status[answer.status] ?? 0) + 1;
        if (answer.status === 201) {
          placed += 1;
          placedUnits[part.id] = (placedUnits[part.id] ?? 0) + options.quantity;
        } else {
          const title = `${answer.status} ${problemTitle(answer.body)}`;
          refusals[title] = (refusals[title] ?? 0) + 1;
        }
      } catch {
        errors += 1;
      }
    }
  }

  await Promise.all(options.apiKeys.map((_key, index) => customer(index)));
  agent.destroy();
  const seconds = (performance.now() - started) / 1000;
  return {
    customers: options.apiKeys.length,
    seconds: round(seconds, 2),
    attempts: latencies.length + errors,
    placed,
    ordersPerSecond: round(placed / seconds),
    latency: summary(latencies),
    status,
    errors,
    placedUnits,
    refusals,
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const options = JSON.parse(process.argv[2] ?? "{}") as ApiOrderLoadOptions;
  process.stdout.write(`${JSON.stringify(await placeApiOrders(options))}\n`);
}
