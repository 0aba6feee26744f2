/** The part of autocannon 8's API the benchmark uses (the package ships no types). */
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  export type Client = EventEmitter;
  export type Options = {
    url: string;
    connections?: number;
    duration?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    setupClient?: (client: Client) => void;
    /** Each built anew for every request when it has a setupRequest. */
    requests?: { setupRequest?: (request: { path?: string }) => { path?: string } }[];
  };
  export type Histogram = { average: number; mean: number; p50: number; p90: number; p99: number; max: number };
  export type Result = {
    requests: Histogram & { total: number };
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
    "1xx": number;
    "2xx": number;
    "3xx": number;
    "4xx": number;
    "5xx": number;
  };
  export type Instance = EventEmitter;
  function autocannon(options: Options, callback: (error: Error | null, result: Result) => void): Instance;
  export default autocannon;
}
