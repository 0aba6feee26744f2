/**
 * The loop both order benchmarks share (the order form, scripts/bench/orders.ts, and the API,
 * scripts/bench/api-orders.ts): every customer is one keep-alive connection that places an order,
 * waits for the answer and places the next, all at once, for a fixed time. Each benchmark says how
 * to place one order and what its answer means; this counts the answers, the latencies, the units
 * placed per part and the Server-Timing split (db / app) of every answer, like load.ts.
 */
import http from "node:http";
import { parseServerTiming, round, serverTimings, summary, type ServerTimingSummary } from "./stats";

export type OrderLoadResult = {
  customers: number;
  seconds: number;
  attempts: number;
  placed: number;
  ordersPerSecond: number;
  /** Answers of any kind per second (placed or refused). */
  requestsPerSecond: number;
  latency: ReturnType<typeof summary>;
  status: Record<string, number>;
  errors: number;
  /** Units ordered per part, according to the answers. */
  placedUnits: Record<string, number>;
  /** What the answers that placed nothing said, counted. */
  refusals: Record<string, number>;
  /** The Server-Timing split of every answer (app = total minus db), as load.ts reports it. */
  serverTiming: ServerTimingSummary | null;
};

export type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** One POST on a keep-alive agent; the whole answer. */
export function post(agent: http.Agent, url: URL, body: string, headers: Record<string, string>) {
  return new Promise<Answer>((resolve, reject) => {
    const request = http.request(
      url,
      { method: "POST", agent, headers: { ...headers, "Content-Length": Buffer.byteLength(body) } },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
        response.on("error", reject);
      },
    );
    request.setTimeout(30_000, () => request.destroy(new Error("timeout")));
    request.on("error", reject);
    request.end(body);
  });
}

/** What one answer meant: an order placed for `partId`, or a refusal in a few words. */
export type Outcome = { placed: true; partId: string } | { placed: false; refusal: string };

export async function orderLoad({
  customers,
  duration,
  quantity,
  order,
}: {
  customers: number;
  duration: number;
  quantity: number;
  /** Places the `turn`-th order of customer `index` and says what came of it. */
  order: (agent: http.Agent, index: number, turn: number) => Promise<{ answer: Answer; outcome: Outcome }>;
}): Promise<OrderLoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: customers });
  const latencies: number[] = [];
  const timings = serverTimings();
  const status: Record<string, number> = {};
  const placedUnits: Record<string, number> = {};
  const refusals: Record<string, number> = {};
  let errors = 0;
  let placed = 0;
  const started = performance.now();
  const deadline = started + duration * 1000;

  async function customer(index: number) {
    for (let turn = index; performance.now() < deadline; turn++) {
      const sent = performance.now();
      try {
        const { answer, outcome } = await order(agent, index, turn);
        latencies.push(performance.now() - sent);
        status[answer.status] = (status[answer.status] ?? 0) + 1;
        const header = answer.headers["server-timing"];
        timings.add(parseServerTiming(Array.isArray(header) ? header.join(",") : header));
        if (outcome.placed) {
          placed += 1;
          placedUnits[outcome.partId] = (placedUnits[outcome.partId] ?? 0) + quantity;
        } else {
          refusals[outcome.refusal] = (refusals[outcome.refusal] ?? 0) + 1;
        }
      } catch {
        errors += 1;
      }
    }
  }

  await Promise.all(Array.from({ length: customers }, (_, index) => customer(index)));
  agent.destroy();
  const seconds = (performance.now() - started) / 1000;
  return {
    customers,
    seconds: round(seconds, 2),
    attempts: latencies.length + errors,
    placed,
    ordersPerSecond: round(placed / seconds),
    requestsPerSecond: round(latencies.length / seconds),
    latency: summary(latencies),
    status,
    errors,
    placedUnits,
    refusals,
    serverTiming: timings.summary(),
  };
}
