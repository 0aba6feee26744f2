/**
 * A shop started without Stripe and Google keys: no page a visitor or a customer reads names a
 * setting (or sends them to the README); the Google button is simply absent, the Pay screen says
 * card payment is not available yet and how to reach the shop. Admins see what to configure on
 * their dashboard, and /healthz reports which integrations are configured.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Order } from "~/models/order.server";
import type { LocalDb } from "../../server/local-db";
import { ENV_NAMES } from "../../server/env";
import { startShop, type Shop } from "../../scripts/bench/shop";
import { createPart, createUser, sessionCookieHeader } from "../setup/factories";
import { createOrder } from "../setup/order-factories";

const work = mkdtempSync(path.join(tmpdir(), "shop-unconfigured-"));
let shop: Shop;

const UNSET = Object.fromEntries(
  [
    "STRIPE_SECRET_KEY",
    "STRIPE_PUBLISHABLE_KEY",
    "STRIPE_WEBHOOK_SECRET",
    "GOOGLE_CLIENT_ID",
    "GOOGLE_CLIENT_SECRET",
  ].map((name) => [name, ""]),
);

beforeAll(async () => {
  const db = { uri: process.env.MONGODB_URI! } as LocalDb;
  shop = await startShop({
    work,
    db,
    buildDir: process.env.BUILD_DIR!,
    extraEnv: { SESSION_SECRET: process.env.SESSION_SECRET!, ...UNSET },
  });
}, 120_000);

afterAll(async () => {
  await shop?.stop();
  rmSync(work, { recursive: true, force: true });
});

async function page(pathname: string, cookie?: string) {
  const response = await fetch(`${shop.url}${pathname}`, {
    headers: cookie ? { Cookie: cookie } : {},
    redirect: "manual",
  });
  return { status: response.status, html: await response.text() };
}

/** No setting's name, no "README", no "environment variable" anywhere in the page (markup and data). */
function expectNoSetupTalk(html: string, where: string) {
  for (const name of ENV_NAMES) expect(html, `${where} names ${name}`).not.toContain(name);
  expect(html, where).not.toMatch(/README|environment variable/i);
}

describe("a shop without Stripe and Google keys", () => {
  test("visitors' pages name no setting and show no Google button", async () => {
    const part = await createPart();
    for (const pathname of [
      "/",
      "/parts",
      "/blogs",
      "/portfolio",
      "/login",
      "/signup",
      "/no-such-page",
      `/parts/${part.id}`,
    ]) {
      const { html } = await page(pathname);
      expectNoSetupTalk(html, pathname);
    }
    for (const pathname of ["/login", "/signup"]) expect((await page(pathname)).html, pathname).not.toMatch(/Google/);
    // Someone posting to the Google start anyway lands on Login with a plain sentence.
    const start = await fetch(`${shop.url}/auth/google`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: shop.url },
      body: "redirectTo=/",
    });
    const login = await page(start.headers.get("location")!);
    expect(login.html).toContain("Google sign-in is not available on this shop.");
    expectNoSetupTalk(login.html, "login after Google");
  });

  test("customers' pages name no setting; Pay says card payment is not available yet and how to reach the shop", async () => {
    const user = await createUser();
    const cookie = await sessionCookieHeader(user.id);
    const part = await createPart();
    const order = await createOrder({ user, part });
    const pages = [
      "/dashboard",
      "/dashboard/orders",
      "/dashboard/review",
      `/parts/${part.id}`,
      `/dashboard/payment/${order.id}`,
      `/dashboard/orders/${order.id}/cancel`,
    ];
    for (const pathname of pages) {
      const { status, html } = await page(pathname, cookie);
      expect(status, pathname).toBe(200);
      expectNoSetupTalk(html, pathname);
    }
    const pay = await page(`/dashboard/payment/${order.id}`, cookie);
    expect(pay.html).toContain("Card payment is not available yet.");
    expect(pay.html).toContain("sales@partsworks.com");
    expect(pay.html).not.toContain("Integrations");
    expect((await Order.findById(order.id).lean())?.status).toBe("unpaid");
  });

  test("admins see what to configure on their dashboard; /healthz reports the integrations, no values", async () => {
    const admin = await createUser({ role: "admin" });
    const { html } = await page("/dashboard", await sessionCookieHeader(admin.id));
    expect(html).toContain("Integrations");
    for (const name of Object.keys(UNSET)) expect(html).toContain(name);

    const health = await (await fetch(`${shop.url}/healthz`)).json();
    expect(health).toEqual({ status: "ok", integrations: { stripe: false, google: false } });
  });

  test("the suite's shop, configured, says so on /healthz", async () => {
    const health = await (await fetch(`${process.env.SHOP_URL}/healthz`)).json();
    expect(health.integrations).toEqual({ stripe: true, google: true });
  });
});
