import { randomBytes } from "node:crypto";
import type { AppLoadContext, RequestHandler as RemixHandler } from "@remix-run/node";
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@remix-run/node";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { isbot } from "isbot";
import { bodyWithNonce, PageCache, type Lookup } from "./page-cache";
import { newTiming, withTiming } from "./timing";

/**
 * Express → Remix, with the shared page cache in between (see page-cache.server.ts). It does what
 * @remix-run/express's handler does (a Fetch Request in, the Response streamed out, the loaders
 * aborted when the client goes away) and, for requests that may use the cache, answers from it or
 * stores what Remix rendered while streaming it to the client.
 */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function createPageHandler({
  getHandler,
  cache,
}: {
  /** The current Remix handler (it changes on rebuilds in development). */
  getHandler: () => RemixHandler;
  cache: PageCache;
}) {
  /** Renders a page for the cache alone: a stale entry's refresh, away from any client. */
  async function refresh(key: string, url: string, headers: Headers) {
    const generation = cache.startRender();
    const context: AppLoadContext = { cspNonce: randomBytes(16).toString("base64"), clientIp: "" };
    const response = await withTiming(newTiming(), () => getHandler()(new Request(url, { headers }), context));
    if (!response.body || !cache.storable(response.status, response.headers)) {
      await response.body?.cancel();
      cache.forget(key);
      return;
    }
    const body = Buffer.from(await response.arrayBuffer());
    if (!context.renderFailed) cache.store(key, generation, pageOf(response, body, context.cspNonce));
  }

  return async function handlePage(req: ExpressRequest, res: ExpressResponse, next: NextFunction) {
    try {
      const nonce = res.locals.cspNonce as string;
      // Crawlers get the whole document at once and browsers a stream (entry.server.tsx): two variants.
      const variant = isbot(req.get("user-agent") ?? "") ? "bot" : "browser";
      const key = cache.keyFor({ method: req.method, url: req.originalUrl, headers: req.headers }, variant);
      if (key) {
        const hit = cache.lookup(key, req);
        if (hit) {
          if (hit.state === "stale") {
            const request = toFetchRequest(req);
            cache.refreshOnce(key, () => refresh(key, request.url, request.headers));
          }
          sendCached(res, hit, nonce);
          return;
        }
      }

      const context: AppLoadContext = { cspNonce: nonce, clientIp: req.ip };
      const generation = cache.startRender();
      let response = await getHandler()(toFetchRequest(req, res), context);
      if (!SAFE_METHODS.has(req.method) && response.status < 400) cache.clear();

      if (key && response.body && cache.storable(response.status, response.headers)) {
        const [toClient, toCache] = response.body.tee();
        const stored = response;
        response = new Response(toClient, { status: stored.status, statusText: stored.statusText, headers: stored.headers });
        new Response(toCache)
          .arrayBuffer()
          .then((body) => {
            if (!context.renderFailed) cache.store(key, generation, pageOf(stored, Buffer.from(body), nonce));
          })
          .catch(() => {});
      }
      await sendResponse(res, response);
    } catch (error) {
      next(error);
    }
  };
}

function pageOf(response: Response, body: Buffer, nonce: string) {
  return { status: response.status, headers: [...response.headers.entries()], body, nonce };
}

function sendCached(res: ExpressResponse, { page, state, ageSeconds }: Lookup, nonce: string) {
  res.status(page.status);
  for (const [name, value] of page.headers) {
    if (name !== "content-length") res.append(name, value);
  }
  res.setHeader("Age", String(ageSeconds));
  res.setHeader("X-Cache", state === "fresh" ? "HIT" : "STALE");
  res.end(bodyWithNonce(page, nonce));
}

/** The Fetch Request for an Express request; with `res`, aborted when the client goes away. */
function toFetchRequest(req: ExpressRequest, res?: ExpressResponse) {
  // req.hostname honours "trust proxy"; the port comes from X-Forwarded-Host or Host.
  const hostHeader = req.get("X-Forwarded-Host") ?? req.get("host") ?? "";
  const port = Number.parseInt(hostHeader.split(":")[1] ?? "", 10);
  const url = `${req.protocol}://${req.hostname}${Number.isSafeInteger(port) ? `:${port}` : ""}${req.originalUrl}`;
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers };
  if (res) {
    let controller: AbortController | null = new AbortController();
    init.signal = controller.signal;
    res.on("finish", () => (controller = null));
    res.on("close", () => controller?.abort());
  }
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  return new Request(url, init);
}

async function sendResponse(res: ExpressResponse, response: Response) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers.entries()) res.append(name, value);
  if (/text\/event-stream/i.test(response.headers.get("Content-Type") ?? "")) res.flushHeaders();
  if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}
