/** Builds real Requests for calling loaders and actions directly in integration tests. */
import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import { pino } from "pino";

const BASE = process.env.SHOP_URL ?? "http://localhost:3000";

export function getRequest(pathname: string, { cookie }: { cookie?: string } = {}) {
  return new Request(new URL(pathname, BASE), { headers: cookie ? { Cookie: cookie } : {} });
}

export function postRequest(
  pathname: string,
  fields: Record<string, string | string[]>,
  { cookie, headers = {} }: { cookie?: string; headers?: Record<string, string> } = {},
) {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) body.append(key, item);
  }
  return new Request(new URL(pathname, BASE), {
    method: "POST",
    body,
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      ...(cookie ? { Cookie: cookie } : {}),
      ...headers,
    },
  });
}

/** A page of the running shop (the suite's production build) over HTTP, redirects not followed. */
export function fetchPage(pathname: string, cookie?: string) {
  return fetch(new URL(pathname, BASE), { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" });
}

/** The text of a page, without tags (a rough look at what a reader sees). */
export async function pageText(response: Response) {
  return (await response.text())
    .replace(/<style[\s\S]*?<\/style>/g, " ")
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, " ");
}

/** The load context the server gives every loader and action (server.ts), for a test request. */
export function testContext(overrides: Partial<AppLoadContext> = {}): AppLoadContext {
  return { cspNonce: "", clientIp: "192.0.2.1", requestId: "test", logger: pino({ level: "silent" }), ...overrides };
}

export function loaderArgs(request: Request, params: Record<string, string> = {}): LoaderFunctionArgs {
  return { request, params, context: testContext() };
}

export function actionArgs(request: Request, params: Record<string, string> = {}): ActionFunctionArgs {
  return { request, params, context: testContext() };
}

/** What Remix's `data(value, init)` returns: the value with the status and headers to answer with. */
function isDataWithInit(value: unknown): value is { data: unknown; init: ResponseInit | null } {
  return typeof value === "object" && value !== null && "type" in value && value.type === "DataWithResponseInit";
}

/** What the browser would get from a returned or thrown value: a Response, `data()` or plain data. */
function asResponse(value: unknown): Response | null {
  if (value instanceof Response) return value;
  if (isDataWithInit(value)) return Response.json(value.data, value.init ?? undefined);
  return null;
}

/**
 * Runs a loader or action and returns its answer as a Response, whether it was returned or thrown
 * (a Response, `data()` with a status and headers, or plain data as JSON).
 */
export async function settle(result: Promise<unknown>): Promise<Response> {
  try {
    const value = await result;
    return asResponse(value) ?? Response.json(value, { status: 200 });
  } catch (thrown) {
    const response = asResponse(thrown);
    if (response) return response;
    throw thrown;
  }
}
