/**
 * Cross-site request forgery: the server refuses every POST that a browser marks as coming from
 * another site (server.ts), before any route runs. Over HTTP against the running shop.
 */
import { randomUUID } from "node:crypto";
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
    expect(response.headers.get("Location")).toBe("/dashboard");
    expect(await User.exists({ email: fields.email })).toBeTruthy();
  });
});
