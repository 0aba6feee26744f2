import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { pino, type LevelWithSilent, type Logger } from "pino";
import { pinoHttp } from "pino-http";

/**
 * Structured logs: one JSON line per request (method, path, status, duration, request id, the
 * signed-in user's id) and errors with their stack, on the server only. Query strings, headers,
 * cookies and bodies are never logged: they carry passwords, reset and unsubscribe tokens.
 * With tracing on, `traceIds` (server/tracing.ts) adds the active span's `trace_id` and `span_id`.
 */
export function createLogger(level: string, traceIds?: () => object) {
  return pino({ level, base: { service: "partsworks-shop" }, ...(traceIds ? { mixin: traceIds } : {}) });
}

/** A request id a proxy may hand on: letters, digits and a few separators, at most 128 characters. */
const REQUEST_ID = /^[\w.:@-]{1,128}$/;

type TrustFn = (address: string, hop: number) => boolean;

/** Whether the request came straight from a proxy TRUST_PROXY lists (Express's compiled check). */
function fromTrustedProxy(req: IncomingMessage) {
  const trust = (req as IncomingMessage & { app?: { get: (name: string) => unknown } }).app?.get("trust proxy fn");
  const peer = req.socket.remoteAddress;
  return typeof trust === "function" && peer !== undefined && (trust as TrustFn)(peer, 0);
}

/** `userOf` names the signed-in user of a request, once the app has (its request context). */
export function requestLogger(logger: Logger, userOf: (res: ServerResponse) => string | undefined) {
  return pinoHttp({
    logger,
    genReqId(req: IncomingMessage, res: ServerResponse) {
      const fromProxy = fromTrustedProxy(req) ? req.headers["x-request-id"] : undefined;
      const id = typeof fromProxy === "string" && REQUEST_ID.test(fromProxy) ? fromProxy : randomUUID();
      res.setHeader("X-Request-Id", id);
      return id;
    },
    serializers: {
      req: (req: IncomingMessage & { id?: string; originalUrl?: string; ip?: string }) => ({
        id: req.id,
        method: req.method,
        path: (req.originalUrl ?? req.url ?? "").split("?")[0],
        // The client's address (from X-Forwarded-For only when TRUST_PROXY says so).
        ip: req.ip,
      }),
      res: (res: ServerResponse) => ({ status: res.statusCode }),
    },
    wrapSerializers: false,
    customProps: (_req, res) => {
      const userId = userOf(res);
      return userId ? { userId } : {};
    },
    customLogLevel(_req, res, error): LevelWithSilent {
      // A 503 is the outage guard's answer while the database is away or full: it said why, once.
      if (!error && res.statusCode === 503) return "warn";
      if (error || res.statusCode >= 500) return "error";
      return "info";
    },
    // A 5xx answered without an error thrown gets none made up (pino-http's own, whose stack says
    // nothing): what went wrong was logged where it happened.
    customErrorObject: (_req, res, error, fields: Record<string, unknown>) => {
      if (error.message !== `failed with status code ${res.statusCode}`) return fields;
      const { err: _madeUp, ...rest } = fields;
      return rest;
    },
    customSuccessMessage: (req, res, ms) => `${req.method} ${(req.url ?? "").split("?")[0]} ${res.statusCode} ${ms}ms`,
    customErrorMessage: (req, res) => `${req.method} ${(req.url ?? "").split("?")[0]} ${res.statusCode}`,
  });
}
