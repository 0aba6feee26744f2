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

/** Runs a loader or action and returns its Response, whether it was returned or thrown. */
export async function settle(result: Promise<unknown>): Promise<Response> {
  try {
    const value = await result;
    if (value instanceof Response) return value;
    return new Response(JSON.stringify(value), { status: 200 });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}
