import { logFailure } from "../../server/request-context";
/**
 * What every /api/v1 call shares: the caller's key (Bearer only; a session cookie is never read),
 * its scope, the rate limit per key, errors as application/problem+json (RFC 9457), JSON bodies
 * checked by the same zod schemas as the screens, Idempotency-Key, and cursor pagination.
 */
import { createHash } from "node:crypto";
import mongoose from "mongoose";
import { RateLimiterMongo, RateLimiterRes } from "rate-limiter-flexible";
import type { z } from "zod";
import { claimIdempotencyKey, releaseIdempotencyKey, storeIdempotentAnswer } from "~/models/idempotency.server";
import type { ApiScope } from "~/domain/api-scopes";
import type { Currency, Money } from "~/domain/money";
import { MAX_IMPORT_LINES } from "~/forms/stock-import";
import { authenticateToken, type KeyHolder } from "./api-keys.server";
import { getEnv } from "./env.server";
import { readLimitedBody } from "./form.server";

export type ApiCaller = KeyHolder;

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

export type FieldError = { field: string; message: string };

/** A problem details answer (RFC 9457); `errors` lists the fields a validation error is about. */
export function problem(
  status: number,
  detail: string,
  { errors, headers, extra }: { errors?: FieldError[]; headers?: Record<string, string>; extra?: object } = {},
) {
  const body = {
    type: "about:blank",
    title: TITLES[status] ?? "Error",
    status,
    detail,
    ...extra,
    ...(errors ? { errors } : {}),
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/problem+json", "Cache-Control": "no-store", ...headers },
  });
}

/** A JSON answer: never cached (it is the caller's own data). */
export function ok(
  body: unknown,
  { status = 200, headers }: { status?: number; headers?: Record<string, string> } = {},
) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store", ...headers },
  });
}

/** Thrown inside a handler to answer with a problem. */
export class ApiProblem extends Error {
  constructor(readonly response: Response) {
    super("API problem");
  }
}

const refuse = (...args: Parameters<typeof problem>) => new ApiProblem(problem(...args));

export const notFound = (what = "That resource does not exist.") => refuse(404, what);

/** The most field errors one answer lists: enough for any real request, never a body's worth. */
const MAX_FIELD_ERRORS = 50;

/** zod's issues as the problem's field list ("lines.0.quantity"). */
export function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues
    .slice(0, MAX_FIELD_ERRORS)
    .map((issue) => ({ field: issue.path.join(".") || "(body)", message: issue.message }));
}

/**
 * What the largest request body of the API holds, with room to spare: MAX_IMPORT_LINES stock updates
 * of a few fields each, nested four deep (`updates[0].backorder.allowed`), under short keys.
 */
export const JSON_LIMITS = {
  values: MAX_IMPORT_LINES * 10,
  items: MAX_IMPORT_LINES,
  depth: 6,
  keyLength: 100,
} as const;

const JSON_REFUSALS = {
  size: "The body has more values than any request of this API.",
  depth: "The body is nested deeper than any request of this API.",
  key: "The body has a key longer than any field of this API.",
} as const;

/** Which of JSON_LIMITS `value` passes, walked without recursion; null when within all of them. */
function jsonBeyondLimits(value: unknown): keyof typeof JSON_REFUSALS | null {
  const stack: [unknown, number][] = [[value, 1]];
  let values = 0;
  while (stack.length) {
    const [next, depth] = stack.pop()!;
    if (++values > JSON_LIMITS.values) return "size";
    if (next === null || typeof next !== "object") continue;
    if (depth > JSON_LIMITS.depth) return "depth";
    const children = Array.isArray(next) ? next : Object.keys(next);
    if (children.length > JSON_LIMITS.items) return "size";
    if (Array.isArray(next)) {
      for (const child of next) stack.push([child, depth + 1]);
    } else {
      for (const [key, child] of Object.entries(next)) {
        if (key.length > JSON_LIMITS.keyLength) return "key";
        stack.push([child, depth + 1]);
      }
    }
  }
  return null;
}

export function validationProblem(errors: FieldError[]) {
  return problem(422, "The request has invalid fields: see errors.", { errors });
}

/** The request's JSON body, checked by `schema`: 415, 400 or 422 (with the fields) otherwise. */
export async function readJson<S extends z.ZodTypeAny>(request: Request, schema: S): Promise<z.output<S>> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/([\w.+-]*\+)?json\b/i.test(type)) throw refuse(415, "Send the body as application/json.");
  const bytes = await readLimitedBody(request, getEnv().BODY_LIMIT_BYTES);
  if (!bytes) throw refuse(413, "The body is too large.");
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw refuse(400, "The body is not valid JSON.");
  }
  const beyond = jsonBeyondLimits(value);
  if (beyond) throw refuse(400, JSON_REFUSALS[beyond]);
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ApiProblem(validationProblem(fieldErrors(parsed.error)));
  return parsed.data;
}

/** The query string, checked by `schema` (422 with the fields otherwise). */
export function readQuery<S extends z.ZodTypeAny>(request: Request, schema: S): z.output<S> {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = schema.safeParse(params);
  if (!parsed.success) throw new ApiProblem(validationProblem(fieldErrors(parsed.error)));
  return parsed.data;
}

// --- Rate limit ----------------------------------------------------------------------------------

let limiter: { limiter: RateLimiterMongo; ready: Promise<void> | undefined } | undefined;

function apiLimiter() {
  if (!limiter) {
    const made = new RateLimiterMongo({
      storeClient: mongoose.connection,
      tableName: "api_rate_limit",
      keyPrefix: "api_key_minute",
      points: getEnv().API_CALLS_PER_MINUTE,
      duration: 60,
      disableIndexesCreation: true,
    });
    limiter = { limiter: made, ready: undefined };
  }
  // Indexes first (see SignInThrottle.whenReady: the local database fails writes during index builds).
  limiter.ready ??= limiter.limiter.createIndexes().catch((error: unknown) => {
    limiter!.ready = undefined;
    throw error;
  });
  return limiter;
}

async function takeCall(keyId: string) {
  const { limiter: made, ready } = apiLimiter();
  await ready;
  try {
    const res = await made.consume(keyId, 1);
    return { refused: false as const, res };
  } catch (rejected) {
    if (rejected instanceof RateLimiterRes) return { refused: true as const, res: rejected };
    throw rejected;
  }
}

// --- The call --------------------------------------------------------------------------------------

type Args = { request: Request; context?: { clientIp?: string } };

/**
 * Runs one API call: the key (401), the rate limit (429 with Retry-After), the scope (403), then
 * `handler`. A handler answers a problem by throwing ApiProblem; anything else thrown is a 500.
 */
export async function apiCall(
  args: Args,
  scope: ApiScope | readonly ApiScope[],
  handler: (caller: ApiCaller) => Promise<Response>,
): Promise<Response> {
  const response = await runCall(args, scope, handler);
  // A body left unread (a call refused before its body was read) can stall the connection it came
  // on: it is read, capped, before the answer goes.
  const { request } = args;
  if (request.body && !request.bodyUsed) await readLimitedBody(request, getEnv().BODY_LIMIT_BYTES).catch(() => null);
  return response;
}

async function runCall(
  { request }: Args,
  scope: ApiScope | readonly ApiScope[],
  handler: (caller: ApiCaller) => Promise<Response>,
): Promise<Response> {
  try {
    const header = request.headers.get("authorization") ?? "";
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) {
      return problem(401, "Send an API key as Authorization: Bearer …", {
        headers: { "WWW-Authenticate": 'Bearer realm="api"' },
      });
    }
    const caller = await authenticateToken(match[1]);
    if (!caller) {
      return problem(401, "That API key is not valid: it may be revoked, or its owner may no longer have its role.", {
        headers: { "WWW-Authenticate": 'Bearer realm="api", error="invalid_token"' },
      });
    }
    const { refused, res } = await takeCall(caller.key.id);
    const limit = String(getEnv().API_CALLS_PER_MINUTE);
    const reset = String(Math.max(1, Math.ceil(res.msBeforeNext / 1000)));
    if (refused) {
      return problem(429, `Too many calls with this key: at most ${limit} a minute. Try again in ${reset} s.`, {
        headers: {
          "Retry-After": reset,
          "RateLimit-Limit": limit,
          "RateLimit-Remaining": "0",
          "RateLimit-Reset": reset,
        },
      });
    }
    const needed: readonly ApiScope[] = typeof scope === "string" ? [scope] : scope;
    if (!needed.some((each) => caller.key.scopes.includes(each))) {
      return problem(403, `This key lacks the scope this call needs (${needed.join(" or ")}).`);
    }
    const response = await handler(caller);
    response.headers.set("RateLimit-Limit", limit);
    response.headers.set("RateLimit-Remaining", String(res.remainingPoints));
    response.headers.set("RateLimit-Reset", reset);
    return response;
  } catch (thrown) {
    if (thrown instanceof ApiProblem) return thrown.response;
    if (thrown instanceof Response) return thrown;
    logFailure("API call failed", thrown);
    return problem(500, "Something went wrong on our side. Try again; if it keeps failing, tell us.");
  }
}

/** The route's answer for a method it does not take. */
export function methodNotAllowed(allow: string) {
  return problem(405, `This address takes ${allow} only.`, { headers: { Allow: allow } });
}

// --- Idempotency-Key -----------------------------------------------------------------------------

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * Runs `change` once per Idempotency-Key of this owner and operation: a repeat with the same body
 * gets the first answer (with `Idempotent-Replayed: true`); the same key with another body is
 * refused (422), as is a repeat while the first call still runs (409). Without the header the
 * change simply runs. Only answers below 500 are kept; a first call that failed without one (an
 * error, a 5xx: the database went away in the middle) may still have made its change, so its key
 * stays claimed and a repeat is told to check (409) rather than make the change a second time.
 */
export async function idempotent(
  request: Request,
  { ownerId, operation, body }: { ownerId: string; operation: string; body: unknown },
  change: () => Promise<Response>,
): Promise<Response> {
  const key = request.headers.get("idempotency-key");
  if (key === null) return change();
  if (!IDEMPOTENCY_KEY.test(key)) {
    return validationProblem([{ field: "Idempotency-Key", message: "Use 1 to 255 visible ASCII characters" }]);
  }
  const bodyHash = createHash("sha256").update(JSON.stringify(body)).digest("hex");
  const claim = { ownerId, operation, key };
  const expiresAt = new Date(Date.now() + getEnv().API_IDEMPOTENCY_HOURS * 60 * 60 * 1000);
  const taken = await claimIdempotencyKey({ ...claim, bodyHash }, expiresAt);
  if (!taken.claimed) {
    const { record } = taken;
    if (record.bodyHash !== bodyHash) {
      return problem(422, "This Idempotency-Key was used with another body: use a new key for a new request.");
    }
    if (record.status === null || record.body === null) {
      const running = record.claimedAt && Date.now() - record.claimedAt.getTime() < 30_000;
      if (!running) {
        return problem(
          409,
          "The first request with this Idempotency-Key failed before its outcome was known, and may have made its change: look it up (GET /api/v1/orders) before sending it again with a new key.",
        );
      }
      return problem(409, "A request with this Idempotency-Key is still being processed: try again shortly.", {
        headers: { "Retry-After": "1" },
      });
    }
    return new Response(record.body, {
      status: record.status,
      headers: {
        "Content-Type": record.status >= 400 ? "application/problem+json" : "application/json",
        "Cache-Control": "no-store",
        "Idempotent-Replayed": "true",
      },
    });
  }
  let response: Response;
  try {
    response = await change();
  } catch (error) {
    // A refusal thrown as a response changed nothing: the key is free again. Anything else may have.
    if (error instanceof Response && error.status < 500) await releaseIdempotencyKey(claim);
    throw error;
  }
  if (response.status >= 500) return response;
  await storeIdempotentAnswer(claim, { status: response.status, body: await response.clone().text() });
  return response;
}

// --- Cursors -------------------------------------------------------------------------------------

/** An opaque cursor: base64url of the position's text. */
export const encodeCursor = (position: string) => Buffer.from(position, "utf8").toString("base64url");

export function decodeCursor(cursor: string | undefined, pattern: RegExp) {
  if (!cursor) return null;
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  if (!pattern.test(text))
    throw new ApiProblem(validationProblem([{ field: "cursor", message: "That cursor is not valid" }]));
  return text;
}

// --- Money and time ------------------------------------------------------------------------------

/**
 * Money as the API writes it: an integer in the minor unit of `currency`, named beside it. The
 * currency is the document's own (an order's, a price list's, a ledger entry's), never assumed.
 */
export const money = (amount: number, currency: Currency): Money => ({ amount, currency });
