/**
 * The request log of the shop the harness runs (its standard output, appended to the file at
 * SHOP_LOG): one JSON line per request, found by the request id the answer carried.
 */
import { readFileSync } from "node:fs";

export type LogLine = Record<string, unknown> & {
  req?: { id?: string; method?: string; path?: string; ip?: string };
  res?: { status?: number };
  responseTime?: number;
  userId?: string;
  err?: { stack?: string };
};

/** The whole log so far. */
export function shopLog() {
  const file = process.env.SHOP_LOG;
  if (!file) throw new Error("SHOP_LOG is not set: run the tests with `npm test unit`");
  return readFileSync(file, "utf8");
}

/** Every complete JSON line that names this request id (a line still being written is skipped). */
export function logLinesOf(requestId: string, log = shopLog()): LogLine[] {
  return log
    .split("\n")
    .filter((line) => line.includes(requestId))
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as LogLine];
      } catch {
        return [];
      }
    });
}

/** The request's own line, written when its response has ended (a moment after the body arrives). */
export function requestLineOf(requestId: string, log = shopLog()) {
  return logLinesOf(requestId, log).find((line) => line.req?.id === requestId && line.res?.status !== undefined);
}
