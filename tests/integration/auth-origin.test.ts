/**
 * Cross-site request forgery: the server refuses every POST that a browser marks as coming from
 * another site (server.ts), before any route runs. Over HTTP against the running shop.
 */
import { randomUUID } from "node:crypto";
import { request as httpRequest } from "node:http";
import { describe, expect, test } from "vitest";
import { Session } from "~/models/session.server";
import { User } from "~/models/user.server";
import { createUser, sessionCookieValue } from "../setup/factories";

const SHOP = process.env.SHOP_URL!;

function post(path: string, fields: Record<string, string>, headers: Record<string, string>) {
  return fetch(`${SHOP}${path}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    redirect: "manual",
  });
}

const signup = () => ({
  name: "Cross Site",
  email: `xsite-${randomUUID().slice(0, 8)}@example.com`,
  password: "secret-pass",
});

describe("POSTs from another origin", () => {
  test.each([
    ["a foreign Origin", { Origin: "https://evil.example" }],
    ["a foreign Origin on the same host name but another port", { Origin: "http://localhost:1" }],
    ["Origin: null (sandboxed frame, data: URL)", { Origin: "null" }],
    ["an Origin that is not a URL", { Origin: "not a url" }],
    ["no Origin but Sec-Fetch-Site: cross-site", { "Sec-Fetch-Site": "cross-site" }],
    ["neither Origin nor Sec-Fetch-Site", {}],
    ["no Origin and Sec-Fetch-Site: none", { "Sec-Fetch-Site": "none" }],
    ["the shop's host over another scheme", { Origin: SHOP.replace(/^http:/, "https:") }],
  ])("are refused with 403 when they carry %s, and nothing is written", async (_label, headers) => {
    const fields = signup();
    const response = await post("/signup", fields, headers);
    expect(response.status).toBe(403);
    expect(await response.text()).toBe("Cross-origin requests are not allowed.");
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(await User.exists({ email: fields.email })).toBeNull();
  });

  test("a forged Make Admin from another site changes no role", async () => {
    const admin = await createUser({ role: "admin" });
    const target = await createUser();
    const { value } = await sessionCookieValue(admin.id);
    const response = await post(
      "/dashboard/allUsers",
      { userId: target.id },
      { Origin: "https://evil.example", Cookie: `__session=${value}` },
    );
    expect(response.status).toBe(403);
    expect((await User.findById(target.id).lean())?.role).toBe("customer");
  });

  test("a forged sign-out from another site leaves the session alive", async () => {
    const user = await createUser();
    const { sessionId, value } = await sessionCookieValue(user.id);
    const response = await post("/logout", {}, { Origin: "https://evil.example", Cookie: `__session=${value}` });
    expect(response.status).toBe(403);
    expect(await Session.exists({ _id: sessionId })).toBeTruthy();
  });

  test("a DELETE without Origin or Sec-Fetch-Site is refused too", async () => {
    const response = await fetch(`${SHOP}/logout`, { method: "DELETE", redirect: "manual" });
    expect(response.status).toBe(403);
  });

  test("a POST with only Sec-Fetch-Site: same-origin (no Origin) goes through", async () => {
    const fields = signup();
    const response = await post("/signup", fields, { "Sec-Fetch-Site": "same-origin" });
    expect(response.status).toBe(302);
  });

  test("the same POST from the shop's own origin goes through", async () => {
    const fields = signup();
    const response = await post("/signup", fields, { Origin: SHOP, "Sec-Fetch-Site": "same-origin" });
    expect(response.status).toBe(302);
    // A new account goes back where it came from, or to the catalogue.
    expect(response.headers.get("Location")).toBe("/parts");
    expect(await User.exists({ email: fields.email })).toBeTruthy();
  });
});

/** A POST sent with its path exactly as written (fetch would resolve `..` before sending). */
function rawPost(path: string, headers: Record<string, string>, body = "") {
  const { hostname, port } = new URL(SHOP);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(
      {
        hostname,
        port,
        path,
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          "Content-Length": Buffer.byteLength(body),
          ...headers,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("the API's exemption (a Bearer key instead of a same-origin browser)", () => {
  test.each([
    "/api/v1/../../dashboard/cart",
    "/api/v1/%2e%2e/%2E%2E/dashboard/cart",
    "/api/v1/orders/../../../dashboard/allUsers",
  ])("%s with any Bearer header is judged as the page it reaches: refused from another site", async (path) => {
    const admin = await createUser({ role: "admin" });
    const target = await createUser();
    const { value } = await sessionCookieValue(admin.id);
    const answer = await rawPost(
      path,
      {
        Origin: "https://evil.example",
        Authorization: "Bearer x",
        Cookie: `__session=${value}`,
      },
      new URLSearchParams({ userId: target.id }).toString(),
    );
    expect(answer.status).toBe(403);
    expect(answer.body).toBe("Cross-origin requests are not allowed.");
    expect((await User.findById(target.id).lean())?.role).toBe("customer");
  });

  test("only for API routes that exist: an unknown /api/v1/ path from another site is a 401 before any route runs", async () => {
    const answer = await rawPost("/api/v1/no-such-thing", {
      Origin: "https://evil.example",
      Authorization: "Bearer x",
    });
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 401, title: "Unauthorized" });
    // A real API route with a key goes on to the API, which judges the key itself.
    const real = await rawPost("/api/v1/orders", { Origin: "https://evil.example", Authorization: "Bearer x" }, "{}");
    expect(real.status).toBe(401);
    expect(JSON.parse(real.body).detail).not.toMatch(/Send an API key/);
  });
});
