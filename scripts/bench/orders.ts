/**
 * The order benchmark's load, meant to run in its own process (pinned to another CPU than the
 * server): `tsx scripts/bench/orders.ts '<json options>'`. Many signed-in customers post the real
 * order form (POST /parts/{id}, as a browser without JavaScript would) at the same time, for a
 * fixed time. Prints one JSON object: orders/s, latency percentiles, status codes, and the units
 * that answers said were ordered per part (a 302 to My Orders is a placed order).
 */
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { round, summary } from "./stats";

export type OrderLoadOptions = {
  baseUrl: string;
  /** One `Cookie` header per customer; each connection is one customer. */
  cookies: string[];
  partIds: string[];
  quantity: number;
  duration: number;
};

export type OrderLoadResult = {
  customers: number;
  seconds: number;
  attempts: number;
  placed: number;
  ordersPerSecond: number;
  latency: ReturnType<typeof summary>;
  status: Record<string, number>;
  errors: number;
  /** Units ordered per part, according to the answers (302 = placed). */
  placedUnits: Record<string, number>;
};

function post(agent: http.Agent, url: URL, body: string, headers: Record<string, string>) {
  return new Promise<{ status: number; location: string | null }>((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: "POST",
        agent,
        headers: {
          ...headers,
          "Content-Type": "application/x-www-form-urlencoded",
          "Content-Length": Buffer.byteLength(body),
        },
      },
      (response) => {
        response.resume();
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, location: response.headers.location ?? null }),
        );
        response.on("error", reject);
      },
    );
    request.setTimeout(30_000, () => request.destroy(new Error("timeout")));
    request.on("error", reject);
    request.end(body);
  });
}

export async function placeOrders(options: OrderLoadOptions): Promise<OrderLoadResult> {
  const origin = new URL(options.baseUrl).origin;
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.cookies.length });
  const latencies: number[] = [];
  const status: Record<string, number> = {};
  const placedUnits: Record<string, number> = {};
  let errors = 0;
  let placed = 0;
  const started = performance.now();
  const deadline = started + options.duration * 1000;

  async function customer(index: number) {
    const cookie = options.cookies[index];
    let round = index;
    while (performance.now() < deadline) {
      const partId = options.partIds[round++ % options.partIds.length];
      const body = new URLSearchParams({
        phone: "555-0100",
        address: `${index + 1} Benchmark Avenue, Springfield`,
        quantity: String(options.quantity),
      }).toString();
      const sent = performance.now();
      try {
        const answer = await post(agent, new URL(`/parts/${partId}`, options.baseUrl), body, {
          Cookie: cookie,
          Origin: origin,
        });
        latencies.push(performance.now() - sent);
        status[answer.status] = (status[answer.status] ?? 0) + 1;
        if (answer.status === 302 && answer.location?.startsWith("/dashboard/orders")) {
          placed += 1;
          placedUnits[partId] = (placedUnits[partId] ?? 0) + options.quantity;
        }
      } catch {
        errors += 1;
      }
    }
  }

  await Promise.all(options.cookies.map((_cookie, index) => customer(index)));
  agent.destroy();
  const seconds = (performance.now() - started) / 1000;
  return {
    customers: options.cookies.length,
    seconds: round(seconds, 2),
    attempts: latencies.length + errors,
    placed,
    ordersPerSecond: round(placed / seconds),
    latency: summary(latencies),
    status,
    errors,
    placedUnits,
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const options = JSON.parse(process.argv[2] ?? "{}") as OrderLoadOptions;
  process.stdout.write(`${JSON.stringify(await placeOrders(options))}\n`);
}
