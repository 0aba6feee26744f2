/**
 * A shop started without Stripe and Google keys: no page a visitor or a customer reads names a
 * setting (or sends them to the README); the Google button is simply absent, the Pay screen says
 * card payment is off (pay by bank transfer) and how to reach the shop. Admins see what to configure on
 * their dashboard, and /healthz reports which integrations are configured.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Order } from "~/orders/model/schema.server";
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

/** A request, as a browser makes it: a POST names this origin; the cookies the shop sets are sent back. */
type Visit = { path: string; method?: "GET" | "POST"; form?: Record<string, string>; status?: number };
type Data = { partId: string; orderId: string; paidOrderId: string; otherOrderId: string; userId: string };
type Pages = (data: Data) => (string | Visit)[];

/**
 * Every route module under app/routes, and how this test reaches it. A new route fails the first
 * test until it is added here: as pages a visitor or a customer reads (checked for setup talk), as
 * admin-only (a visitor or customer who opens it lands on /login, which is checked), or as not a
 * page, saying why.
 */
const ROUTES: Record<string, { visitor?: Pages; customer?: Pages } | { adminOnly: Pages } | { notAPage: string }> = {
  $: {
    visitor: () => [{ path: "/no-such-page", status: 404 }],
    customer: () => [{ path: "/dashboard/no-such-page", status: 404 }],
  },
  "[robots.txt]": { visitor: () => ["/robots.txt"] },
  "[sitemap.xml]": { visitor: () => ["/sitemap.xml"] },
  "sitemaps.$file": { visitor: () => ["/sitemaps/pages", { path: "/sitemaps/nothing", status: 404 }] },
  _index: { visitor: () => ["/"], customer: () => ["/"] },
  "parts._index": { visitor: () => ["/parts", "/parts?q=no-such-part-anywhere"], customer: () => ["/parts"] },
  "parts.$id": {
    visitor: ({ partId }) => [`/parts/${partId}`],
    customer: ({ partId }) => [`/parts/${partId}`, { path: `/parts/${"a".repeat(24)}`, status: 404 }],
  },
  blogs: { visitor: () => ["/blogs"] },
  portfolio: { visitor: () => ["/portfolio"] },
  login: { visitor: () => ["/login", "/login?googleError=unavailable"] },
  signup: { visitor: () => ["/signup"] },
  logout: { visitor: () => ["/logout"] },
  "auth.google": {
    visitor: () => ["/auth/google", { path: "/auth/google", method: "POST", form: { redirectTo: "/" } }],
  },
  "auth.google.callback": { visitor: () => ["/auth/google/callback?code=x&state=y"] },
  currency: {
    visitor: () => [
      "/currency",
      // Remembered, and back to the catalogue (the redirect is followed).
      { path: "/currency", method: "POST", form: { currency: "EUR", redirectTo: "/parts" } },
      { path: "/currency", method: "POST", form: { currency: "XYZ", redirectTo: "/" }, status: 400 },
    ],
  },
  "forgot-password": {
    visitor: () => [
      "/forgot-password",
      { path: "/forgot-password", method: "POST", form: { email: "nobody@example.com" } },
    ],
  },
  "reset-password": {
    visitor: () => [
      "/reset-password?token=no-such-token",
      {
        path: "/reset-password",
        method: "POST",
        form: { token: "no-such-token", password: "a-new-password-42" },
        status: 400,
      },
    ],
  },
  "verify-email": { visitor: () => [{ path: "/verify-email?token=no-such-token", status: 400 }] },
  "change-email": { visitor: () => [{ path: "/change-email?token=no-such-token", status: 400 }] },
  unsubscribe: { visitor: () => [{ path: "/unsubscribe?token=no-such-token", status: 400 }] },
  "webhooks.stripe": {
    // Anyone can post here; only the shop's log says which setting is missing.
    visitor: () => [
      { path: "/webhooks/stripe", method: "POST", form: { type: "payment_intent.succeeded" }, status: 503 },
    ],
  },
  dashboard: { customer: () => ["/dashboard"] },
  "dashboard._index": { customer: () => ["/dashboard"] },
  "dashboard.email": {
    customer: () => [
      "/dashboard/email",
      { path: "/dashboard/email", method: "POST", form: { intent: "resend-verification" } },
    ],
  },
  "dashboard.cart": { customer: () => ["/dashboard/cart"] },
  "dashboard.quick-order": { customer: () => ["/dashboard/quick-order"] },
  "dashboard.lists": {
    customer: () => [
      "/dashboard/lists",
      { path: "/dashboard/lists", method: "POST", form: { intent: "create", name: "" }, status: 400 },
    ],
  },
  "dashboard.lists_.$id": { customer: () => [{ path: "/dashboard/lists/000000000000000000000000", status: 404 }] },
  "dashboard.lists_.$id_.delete": {
    customer: () => [{ path: "/dashboard/lists/000000000000000000000000/delete", status: 404 }],
  },
  "dashboard.quotes": { customer: () => ["/dashboard/quotes"] },
  "dashboard.quotes_.new": {
    customer: () => [
      "/dashboard/quotes/new",
      { path: "/dashboard/quotes/new", method: "POST", form: { intent: "request" }, status: 400 },
    ],
  },
  "dashboard.quotes_.$id": { customer: () => [{ path: "/dashboard/quotes/000000000000000000000000", status: 404 }] },
  "dashboard.orders": { customer: () => ["/dashboard/orders"] },
  "dashboard.orders_.$id._index": {
    customer: ({ orderId, paidOrderId, otherOrderId }) => [
      `/dashboard/orders/${orderId}`,
      `/dashboard/orders/${paidOrderId}`,
      { path: `/dashboard/orders/${otherOrderId}`, status: 404 },
    ],
  },
  "dashboard.orders_.$id.cancel": { customer: ({ orderId }) => [`/dashboard/orders/${orderId}/cancel`] },
  "dashboard.orders_.$id.decline": {
    customer: ({ otherOrderId }) => [{ path: `/dashboard/orders/${otherOrderId}/decline`, status: 404 }],
  },
  "dashboard.orders_.$id.return": { customer: ({ paidOrderId }) => [`/dashboard/orders/${paidOrderId}/return`] },
  "dashboard.payment.$id": {
    customer: ({ orderId }) => [
      `/dashboard/payment/${orderId}`,
      { path: `/dashboard/payment/${orderId}`, method: "POST", form: { intent: "checkout" }, status: 503 },
    ],
  },
  "dashboard.payment.$id_.success": {
    customer: ({ orderId, paidOrderId }) => [
      `/dashboard/payment/${orderId}/success`,
      `/dashboard/payment/${orderId}/success?payment_intent=pi_123`,
      `/dashboard/payment/${paidOrderId}/success`,
    ],
  },
  "dashboard.review": { customer: () => ["/dashboard/review"] },
  "dashboard.statement": { customer: () => ["/dashboard/statement"] },
  "dashboard.statement_.$format": { notAPage: "the statement as PDF or CSV, checked as the screen above" },
  "dashboard.sessions": { customer: () => ["/dashboard/sessions"] },
  "documents.$id.$kind": {
    customer: ({ orderId, paidOrderId }) => [
      `/documents/${orderId}/pro-forma`,
      `/documents/${paidOrderId}/invoice`,
      { path: `/documents/${paidOrderId}/packing-slip`, status: 404 },
    ],
  },
  "documents.$id.rma.$number": {
    customer: ({ otherOrderId }) => [{ path: `/documents/${otherOrderId}/rma/RMA-100001`, status: 404 }],
  },
  "documents.$id.rma.$number_.pdf": { notAPage: "the return label as PDF, checked as the page above" },
  "documents.quotes.$id.$version": {
    customer: () => [{ path: `/documents/quotes/${"a".repeat(24)}/1`, status: 404 }],
  },
  "documents.quotes.$id.$version_.pdf": { notAPage: "the quotation as PDF, checked as the page above" },
  "dashboard.apiKeys": { customer: () => ["/dashboard/apiKeys"] },
  "dashboard.webhooks": { customer: () => ["/dashboard/webhooks"] },
  "dashboard.priceGroups": { adminOnly: () => ["/dashboard/priceGroups"] },
  "dashboard.exchangeRates": { adminOnly: () => ["/dashboard/exchangeRates"] },
  "dashboard.company": { customer: () => ["/dashboard/company"] },
  "dashboard.companies": { adminOnly: () => ["/dashboard/companies"] },
  "dashboard.companies_.$id": { adminOnly: () => [`/dashboard/companies/${"a".repeat(24)}`] },
  "dashboard.companies_.$id_.statement": { adminOnly: () => [`/dashboard/companies/${"a".repeat(24)}/statement`] },
  "dashboard.companies_.$id_.statement_.$format": { notAPage: "a company's statement as PDF or CSV" },
  "invitations.$token": { visitor: () => [{ path: "/invitations/not-a-real-invitation", status: 404 }] },
  "api.docs": { visitor: () => ["/api/docs"] },
  "api.v1.openapi[.json]": { notAPage: "the API's OpenAPI document (JSON)" },
  "api.v1.orders._index": { notAPage: "the JSON API (tests/integration/api.test.ts)" },
  "api.v1.lists._index": { notAPage: "the JSON API (tests/integration/saved-lists.test.ts)" },
  "api.v1.lists.$id._index": { notAPage: "the JSON API" },
  "api.v1.lists.$id.cart": { notAPage: "the JSON API" },
  "api.v1.quotes._index": { notAPage: "the JSON API (tests/integration/quote-documents.test.ts)" },
  "api.v1.quotes.$id._index": { notAPage: "the JSON API" },
  "api.v1.quotes.$id.accept": { notAPage: "the JSON API" },
  "api.v1.orders.$id._index": { notAPage: "the JSON API" },
  "api.v1.orders.$id.cancel": { notAPage: "the JSON API" },
  "api.v1.orders.$id.documents.$kind": { notAPage: "the JSON API" },
  "api.v1.parts._index": { notAPage: "the JSON API" },
  "api.v1.parts.$number": { notAPage: "the JSON API" },
  "api.v1.staff.orders-to-ship": { notAPage: "the JSON API" },
  "api.v1.staff.orders.$id.cancel": { notAPage: "the JSON API" },
  "api.v1.staff.orders.$id.credit-notes.$noteId.payout": { notAPage: "the JSON API" },
  "api.v1.staff.orders.$id.payments": { notAPage: "the JSON API" },
  "api.v1.staff.orders.$id.ship": { notAPage: "the JSON API" },
  "api.v1.staff.stock": { notAPage: "the JSON API" },
  "api.v1.statement": { notAPage: "the JSON API" },
  "documents.$id.$kind_.pdf": { notAPage: "the PDF print of the documents checked above as HTML" },
  "documents.$id.$kind_.ubl": { notAPage: "the invoice as UBL XML, the e-invoice twin of its PDF" },
  "avatars.$name": { notAPage: "an uploaded profile picture's bytes" },
  "dashboard.addProduct": { adminOnly: () => ["/dashboard/addProduct"] },
  "dashboard.admin": { adminOnly: () => ["/dashboard/admin"] },
  "dashboard.allUsers": { adminOnly: () => ["/dashboard/allUsers"] },
  "dashboard.allUsers_.$id._index": { adminOnly: ({ userId }) => [`/dashboard/allUsers/${userId}`] },
  "dashboard.allUsers_.$id.$intent": { adminOnly: ({ userId }) => [`/dashboard/allUsers/${userId}/sign-out`] },
  "dashboard.audit": { adminOnly: () => ["/dashboard/audit"] },
  "dashboard.failedMail": { adminOnly: () => ["/dashboard/failedMail"] },
  "dashboard.manageOrders": { adminOnly: () => ["/dashboard/manageOrders"] },
  "dashboard.manageOrders_.$id._index": { adminOnly: ({ orderId }) => [`/dashboard/manageOrders/${orderId}`] },
  "dashboard.manageOrders_.$id.remove": { adminOnly: ({ orderId }) => [`/dashboard/manageOrders/${orderId}/remove`] },
  "dashboard.manageOrders_.$id.returns.$returnId": {
    adminOnly: ({ orderId }) => [`/dashboard/manageOrders/${orderId}/returns/${"0".repeat(24)}`],
  },
  "dashboard.manageOrders_.export": { adminOnly: () => ["/dashboard/manageOrders/export"] },
  "dashboard.manageQuotes": { adminOnly: () => ["/dashboard/manageQuotes?status=waiting"] },
  "dashboard.manageQuotes_.$id": { adminOnly: () => [`/dashboard/manageQuotes/${"a".repeat(24)}`] },
  "dashboard.manageQuotes_.$id_.decline": { adminOnly: () => [`/dashboard/manageQuotes/${"a".repeat(24)}/decline`] },
  "dashboard.manageProducts": { adminOnly: () => ["/dashboard/manageProducts"] },
  "dashboard.manageProducts_.$id.delete": { adminOnly: ({ partId }) => [`/dashboard/manageProducts/${partId}/delete`] },
  "dashboard.manageProducts_.$id.edit": { adminOnly: ({ partId }) => [`/dashboard/manageProducts/${partId}/edit`] },
  "dashboard.manageProducts_.export": { adminOnly: () => ["/dashboard/manageProducts/export"] },
  "dashboard.manageProducts_.import": { adminOnly: () => ["/dashboard/manageProducts/import"] },
  "dashboard.manageProducts_.priceLists.export": { adminOnly: () => ["/dashboard/manageProducts/priceLists/export"] },
  "dashboard.manageProducts_.priceLists.import": { adminOnly: () => ["/dashboard/manageProducts/priceLists/import"] },
  "dashboard.reviews": { adminOnly: () => ["/dashboard/reviews"] },
  "dashboard.reviews_.$id.delete": { adminOnly: () => [`/dashboard/reviews/${"a".repeat(24)}/delete`] },
};

/** The route modules of the app: files (extension dropped) and folders with a route module. */
function routeIds() {
  const dir = fileURLToPath(new URL("../../app/routes", import.meta.url));
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() || (/\.(tsx?|jsx?)$/.test(entry.name) && !/\.test\./.test(entry.name)))
    .map((entry) => (entry.isDirectory() ? entry.name : entry.name.replace(/\.(tsx?|jsx?)$/, "")))
    .sort();
}

/**
 * Opens `visit` and follows the shop's redirects as a browser does (keeping the cookies it sets, the
 * toasts among them); every response on the way must be free of setup talk.
 */
async function open(visit: string | Visit, cookie = "") {
  const { path: start, method = "GET", form, status } = typeof visit === "string" ? { path: visit } : visit;
  const jar = new Map(
    cookie ? cookie.split("; ").map((pair) => pair.split(/=(.*)/s).slice(0, 2) as [string, string]) : [],
  );
  let url = new URL(start, shop.url);
  let request: RequestInit = {
    method,
    ...(form ? { body: new URLSearchParams(form) } : {}),
    headers: method === "POST" ? { "Content-Type": "application/x-www-form-urlencoded", Origin: shop.url } : {},
  };
  for (let hop = 0; ; hop++) {
    const headers = new Headers(request.headers);
    if (jar.size) headers.set("Cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "));
    const response = await fetch(url, { ...request, headers, redirect: "manual" });
    for (const set of response.headers.getSetCookie()) {
      const [pair] = set.split(";");
      const [name, value] = pair.split(/=(.*)/s);
      if (value) jar.set(name, value);
      else jar.delete(name);
    }
    const html = await response.text();
    const where = `${method} ${start}${hop ? ` → ${url.pathname}${url.search}` : ""}`;
    expectNoSetupTalk(html, where);
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location && hop < 5) {
      url = new URL(location, url);
      expect(url.origin, where).toBe(shop.url);
      request = { method: "GET" };
      continue;
    }
    expect(response.status, where).toBe(status ?? 200);
    return { url, html };
  }
}

/** No setting's name, no "README", no "environment variable" anywhere in the page (markup and data). */
function expectNoSetupTalk(html: string, where: string) {
  for (const name of ENV_NAMES) expect(html, `${where} names ${name}`).not.toContain(name);
  expect(html, where).not.toMatch(/README|environment variable/i);
}

async function testData(): Promise<Data & { user: Awaited<ReturnType<typeof createUser>> }> {
  const user = await createUser();
  const part = await createPart();
  const order = await createOrder({ user, part });
  const paid = await createOrder({ user, part, status: "paid" });
  const other = await createOrder({ user: await createUser(), part });
  return { user, partId: part.id, orderId: order.id, paidOrderId: paid.id, otherOrderId: other.id, userId: user.id };
}

describe("a shop without Stripe and Google keys", () => {
  test("every route module is listed: as pages of visitors or customers, as admin-only, or as not a page", () => {
    expect(Object.keys(ROUTES).sort()).toEqual(routeIds());
  });

  test("no page a visitor can reach names a setting; no Google button", async () => {
    const data = await testData();
    for (const use of Object.values(ROUTES)) {
      if ("visitor" in use) for (const visit of use.visitor!(data)) await open(visit);
    }
    for (const pathname of ["/login", "/signup"]) expect((await open(pathname)).html, pathname).not.toMatch(/Google/);
    // Someone posting to the Google start anyway lands on Login with a plain sentence.
    const login = await open({ path: "/auth/google", method: "POST", form: { redirectTo: "/" } });
    expect(login.url.pathname).toBe("/login");
    expect(login.html).toContain("Google sign-in is not available on this shop.");
  });

  test("no page a customer can reach names a setting; Pay says card payment is off, to pay by bank transfer, and how to reach the shop", async () => {
    const data = await testData();
    const cookie = await sessionCookieHeader(data.user.id);
    for (const use of Object.values(ROUTES)) {
      if ("customer" in use && use.customer) for (const visit of use.customer(data)) await open(visit, cookie);
      // Signed in, the visitors' pages say nothing of settings either.
      if ("visitor" in use && use.visitor) for (const visit of use.visitor(data)) await open(visit, cookie);
    }
    const pay = await open(`/dashboard/payment/${data.orderId}`, cookie);
    expect(pay.html).toContain("Card payment is off in this shop");
    expect(pay.html).toContain("by bank transfer");
    expect(pay.html).toContain("sales@partsworks.com");
    expect(pay.html).not.toContain("Integrations");
    const payNow = await open(
      { path: `/dashboard/payment/${data.orderId}`, method: "POST", form: { intent: "checkout" }, status: 503 },
      cookie,
    );
    expect(payNow.html).toContain("Card payment is off in this shop");
    expect((await Order.findById(data.orderId).lean())?.status).toBe("unpaid");
  });

  test("admin-only pages send a visitor or a customer to /login, which names no setting", async () => {
    const data = await testData();
    for (const use of Object.values(ROUTES)) {
      if (!("adminOnly" in use)) continue;
      for (const visit of use.adminOnly(data)) {
        expect((await open(visit)).url.pathname, `${visit} for a visitor`).toBe("/login");
        // A customer who opens an admin page is signed out: a new session each time.
        const cookie = await sessionCookieHeader(data.user.id);
        expect((await open(visit, cookie)).url.pathname, `${visit} for a customer`).toBe("/login");
      }
    }
  });

  test("admins see what to configure on their dashboard; /healthz reports the integrations, no values", async () => {
    const admin = await createUser({ role: "admin" });
    const response = await fetch(`${shop.url}/dashboard`, { headers: { Cookie: await sessionCookieHeader(admin.id) } });
    const html = await response.text();
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
