import { pino, type Logger } from "pino";

/**
 * One JSON line for a failure the shop gets over by itself: a sweep or a job that runs again, a
 * side step a sweep completes later. A fault the shop knows (its database away or refusing writes,
 * a full disk, a network error) is a warning with its message and no stack: the outage guard and
 * the sweeps deal with it, and a stack per failed write would bury the log during an outage.
 * Anything else is an error with its stack, still on one line (pino's `err` serializer).
 *
 * The app reaches this through server/request-context.ts. Inside a request the line goes through
 * the request's logger (its id and user); elsewhere through the shop's, which server.ts hands over
 * with the database's own faults (app/runtime.server.ts).
 */
export type Fault = "database unavailable" | "database busy" | "disk full" | "network";

type DatabaseFault = (error: unknown) => Fault | null;

let shopLogger: Logger | undefined;
let databaseFault: DatabaseFault = () => null;
let requestLogger: () => Logger | undefined = () => undefined;

/** The shop's logger, and how to tell the database's faults (server.ts, at start and after a rebuild). */
export function useShopLogger(logger: Logger, faultOfDatabase: DatabaseFault) {
  shopLogger = logger;
  databaseFault = faultOfDatabase;
}

/** How the current request's logger is found (server/request-context.ts). */
export function findRequestLoggerWith(lookup: () => Logger | undefined) {
  requestLogger = lookup;
}

/** The logger for a line now: the request's, the shop's, or (scripts and tests) one of its own on standard output. */
export function appLogger(): Logger {
  shopLogger ??= pino({ level: process.env.LOG_LEVEL || "info", base: { service: "partsworks-shop" } });
  return requestLogger() ?? shopLogger;
}

/** Errors of the network: a peer that refused, reset, timed out or has no address (Node's and nodemailer's codes). */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ESOCKET",
  "ECONNECTION",
  "EDNS",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_SOCKET",
]);
const DISK_FULL_CODES = new Set(["ENOSPC", "EDQUOT"]);

/** Which known fault an error is (or was caused by), or null for anything else. */
export function faultOf(error: unknown): Fault | null {
  const database = databaseFault(error);
  if (database) return database;
  for (let cause = error, depth = 0; cause && typeof cause === "object" && depth < 5; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string" && DISK_FULL_CODES.has(code)) return "disk full";
    if (typeof code === "string" && NETWORK_CODES.has(code)) return "network";
    cause = (cause as { cause?: unknown }).cause;
  }
  return null;
}

/** "Name: first line of the message", without the driver's topology dump. */
function shortly(error: unknown) {
  if (!(error instanceof Error)) return String(error).split("\n")[0].slice(0, 300);
  const first = (error.message.split("\n")[0] ?? "").slice(0, 300);
  return error.name && error.name !== "Error" ? `${error.name}: ${first}` : first;
}

/** Where a failure's line goes: a pino logger, or what a caller passes in its place. */
export type FailureLogger = {
  warn: (object: object, message: string) => void;
  error: (object: object, message: string) => void;
};

/**
 * Logs a failure in one JSON line. `message` says what failed and what happens next ("…; the
 * outbox sweep will queue it"); `fields` adds ids. A known fault: level warn, `fault` names it,
 * `error` is its first line. Anything else: level error, with `err` and its stack.
 */
export function logFailure(
  message: string,
  error: unknown,
  fields: Record<string, unknown> = {},
  logger: FailureLogger = appLogger(),
) {
  const fault = faultOf(error);
  if (fault) logger.warn({ ...fields, fault, error: shortly(error) }, message);
  else logger.error({ ...fields, err: error }, message);
}
