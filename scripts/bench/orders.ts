/**
 * The order benchmark's load, run in the load generators' process (scripts/bench/load-runner.ts,
 * pinned to another CPU than the server) or alone: `tsx scripts/bench/orders.ts '<json options>'`.
 * Many signed-in customers post the real order form (POST /parts/{id}, as a browser without
 * JavaScript would) at the same time, for a fixed time (the loop: scripts/bench/order-load.ts).
 * Prints one JSON object: orders/s, latency percentiles, status codes, the Server-Timing split, and
 * the units that answers said were ordered per part (a 302 to My Orders is a placed order).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { orderLoad, post } from "./order-load";
import { BENCH_ADDRESS, addressForm } from "./address";

export type { OrderLoadResult } from "./order-load";

export type OrderLoadOptions = {
  baseUrl: string;
  /** One `Cookie` header per customer; each connection is one customer. */
  cookies: string[];
  partIds: string[];
  quantity: number;
  duration: number;
};

export function placeOrders(options: OrderLoadOptions) {
  const origin = new URL(options.baseUrl).origin;
  return orderLoad({
    customers: options.cookies.length,
    duration: options.duration,
    quantity: options.quantity,
    async order(agent, index, turn) {
      const partId = options.partIds[turn % options.partIds.length];
      const body = new URLSearchParams({
        phone: "555-0100",
        ...addressForm({ ...BENCH_ADDRESS, line1: `${index + 1} Benchmark Avenue` }),
        quantity: String(options.quantity),
      }).toString();
      const answer = await post(agent, new URL(`/parts/${partId}`, options.baseUrl), body, {
        Cookie: options.cookies[index],
        Origin: origin,
        "Content-Type": "application/x-www-form-urlencoded",
      });
      const location = answer.headers.location ?? "";
      const placed = answer.status === 302 && location.startsWith("/dashboard/orders");
      return {
        answer,
        outcome: placed
          ? { placed: true, partId }
          : { placed: false, refusal: `${answer.status}${location ? ` to ${location.split("?")[0]}` : ""}` },
      };
    },
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const options = JSON.parse(process.argv[2] ?? "{}") as OrderLoadOptions;
  process.stdout.write(`${JSON.stringify(await placeOrders(options))}\n`);
}
