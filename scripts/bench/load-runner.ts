/**
 * The benchmark's load generators in one process, pinned to the load CPU for the whole run: each
 * line on standard input is a job (`{"job":"load"|"orders"|"api-orders","input":{…}}`), each line
 * on standard output its answer (`{"result":…}` or `{"error":"…"}`). One process for the run
 * instead of one per target: each start cost about 0.6 s of CPU. It ends when its input closes.
 */
import { createInterface } from "node:readline";
import { placeApiOrders, type ApiOrderLoadOptions } from "./api-orders";
import { load, type LoadOptions } from "./load";
import { placeOrders, type OrderLoadOptions } from "./orders";

const jobs = {
  load: (input: unknown) => load(input as LoadOptions),
  orders: (input: unknown) => placeOrders(input as OrderLoadOptions),
  "api-orders": (input: unknown) => placeApiOrders(input as ApiOrderLoadOptions),
};
export type LoadJob = keyof typeof jobs;

for await (const line of createInterface({ input: process.stdin })) {
  const { job, input } = JSON.parse(line) as { job: LoadJob; input: unknown };
  try {
    process.stdout.write(`${JSON.stringify({ result: await jobs[job](input) })}\n`);
  } catch (error) {
    process.stdout.write(`${JSON.stringify({ error: error instanceof Error ? error.message : String(error) })}\n`);
  }
}
// Input closed: the bench is done with it (an open keep-alive socket must not keep it running).
process.exit(0);
