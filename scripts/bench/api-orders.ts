/**
 * The API order benchmark's load, run in the load generators' process (scripts/bench/load-runner.ts,
 * pinned to another CPU than the server) or alone: `tsx scripts/bench/api-orders.ts '<json options>'`.
 * Many customers, each with their own API key, place orders with `POST /api/v1/orders` (lines by
 * part number and quantity, a fresh Idempotency-Key per order) at the same time, for a fixed time,
 * in the loop the order form's benchmark uses (scripts/bench/order-load.ts). Prints one JSON object in the same shape: a 201
 * is a placed order, and a refusal is counted by its problem detail.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { orderLoad, post, type OrderLoadResult } from "./order-load";
import { BENCH_ADDRESS } from "./address";

export type ApiOrderLoadOptions = {
  baseUrl: string;
  /** One API key (with the `order` scope) per customer; each connection is one customer. */
  apiKeys: string[];
  parts: { id: string; partNumber: string }[];
  quantity: number;
  duration: number;
};

export type ApiOrderLoadResult = OrderLoadResult;

function problemTitle(body: string) {
  try {
    const parsed = JSON.parse(body) as { title?: string; detail?: string };
    return parsed.detail ?? parsed.title ?? "no title";
  } catch {
    return "not JSON";
  }
}

export function placeApiOrders(options: ApiOrderLoadOptions): Promise<ApiOrderLoadResult> {
  const url = new URL("/api/v1/orders", options.baseUrl);
  return orderLoad({
    customers: options.apiKeys.length,
    duration: options.duration,
    quantity: options.quantity,
    async order(agent, index, turn) {
      const part = options.parts[turn % options.parts.length];
      const body = JSON.stringify({
        lines: [{ partNumber: part.partNumber, quantity: options.quantity }],
        phone: "555-0100",
        deliveryAddress: { ...BENCH_ADDRESS, line1: `${index + 1} Benchmark Avenue` },
      });
      const answer = await post(agent, url, body, {
        Authorization: `Bearer ${options.apiKeys[index]}`,
        "Idempotency-Key": randomUUID(),
        "Content-Type": "application/json",
        Accept: "application/json",
      });
      return {
        answer,
        outcome:
          answer.status === 201
            ? { placed: true, partId: part.id }
            : { placed: false, refusal: `${answer.status} ${problemTitle(answer.body)}` },
      };
    },
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const options = JSON.parse(process.argv[2] ?? "{}") as ApiOrderLoadOptions;
  process.stdout.write(`${JSON.stringify(await placeApiOrders(options))}\n`);
}
