import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { DocumentStream } from "~/services/document-stream.server";
import { NonceProvider } from "~/hooks/nonce";
import { RequestIdProvider } from "~/hooks/request-id";
import { logFailure } from "~/services/log.server";

/**
 * How long single fetch waits for a loader's promises (the home page's reviews) before it rejects
 * them; the render is aborted a second later, once those rejections have reached the page.
 */
export const streamTimeout = 5_000;

// What server.ts takes from the app: loaded once, from this build (runtime.server.ts).
export { shopRuntime } from "./runtime.server";
const ABORT_DELAY = streamTimeout + 1_000;
/** Seconds, as server/db-outage.ts sends them on the answers of loaders and actions. */
const RETRY_AFTER = "5";

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = typeof loadContext.cspNonce === "string" ? loadContext.cspNonce : "";
  // Crawlers and SPA-less requests get the whole document at once; browsers get it streamed.
  const waitForAll = isbot(request.headers.get("user-agent") ?? "") || remixContext.isSpaMode;
  // A 503 (the database is away: server/db-outage.ts) tells browsers, crawlers and load balancers
  // when to come back.
  if (responseStatusCode === 503) responseHeaders.set("Retry-After", RETRY_AFTER);
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const send = () => {
      shellRendered = true;
      const body = new DocumentStream();
      const stream = createReadableStreamFromReadable(body);
      responseHeaders.set("Content-Type", "text/html; charset=utf-8");
      resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
      pipe(body);
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RequestIdProvider value={loadContext.requestId ?? null}>
          <RemixServer context={remixContext} url={request.url} nonce={nonce} />
        </RequestIdProvider>
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          if (!waitForAll) send();
        },
        onAllReady() {
          clearTimeout(abortTimer);
          if (waitForAll) send();
        },
        onShellError(error: unknown) {
          clearTimeout(abortTimer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) loadContext.logger?.error({ err: error }, "rendering failed after the shell was sent");
        },
      },
    );
    // Cleared once the page is complete (React calls back only after this line, from its own
    // scheduling): a pending timer would keep each finished render (and its request) in memory
    // for ABORT_DELAY, and then abort a render that is already over.
    const abortTimer = setTimeout(abort, ABORT_DELAY);
  });
}

/** Errors of loaders, actions and rendering, with their stack, in the request's log (never to the visitor). */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  if (context?.logger) context.logger.error({ err: error }, "request failed");
  else logFailure("request failed", error);
};
