/**
 * The shop behind Debian's nginx over https, with the configuration the deployment guide gives
 * (tests/setup/nginx.ts): nginx rewrites Host to the upstream's address, and the shop knows its
 * public origin from PUBLIC_URL and trusts nginx's own address (TRUST_PROXY=127.0.0.1).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:https";
import { tmpdir } from "node:os";
import path from "node:path";
import type { LocalDb } from "../../server/local-db";
import { freePort } from "../../server/local-db";
import { startShop, type Shop } from "../../scripts/bench/shop";
import { createUser } from "../setup/factories";
import { startNginx } from "../setup/nginx";
import { requestLineOf } from "../setup/shop-log";
import { expect, test } from "./fixtures";
import { fillDeliveryAddress } from "./delivery-address";

let work: string;
let shop: Shop;
let proxy: Awaited<ReturnType<typeof startNginx>>;
let log = "";

test.use({ ignoreHTTPSErrors: true });

test.beforeAll(async () => {
  // Starting a second shop and nginx takes longer than a test's default on a busy machine.
  test.setTimeout(120_000);
  work = mkdtempSync(path.join(tmpdir(), "shop-proxy-"));
  const port = await freePort();
  shop = await startShop({
    work,
    db: { uri: process.env.MONGODB_URI! } as LocalDb,
    buildDir: process.env.BUILD_DIR!,
    extraEnv: {
      PUBLIC_URL: `https://localhost:${port}`,
      TRUST_PROXY: "127.0.0.1",
      SESSION_SECRET: process.env.SESSION_SECRET!,
    },
    onLog: (chunk) => (log += chunk),
  });
  proxy = await startNginx({ dir: path.join(work, "nginx"), upstream: `http://127.0.0.1:${shop.port}`, port });
});

test.afterAll(async () => {
  await proxy?.stop();
  await shop?.stop();
  rmSync(work, { recursive: true, force: true });
});

const uniqueEmail = () => `proxy-${Math.random().toString(36).slice(2, 10)}@example.com`;

test("sign-up, sign-out and login forms work through the proxy, with Secure cookies and HSTS", async ({
  page,
  context,
}) => {
  const email = uniqueEmail();
  const signup = await page.goto(`${proxy.url}/signup`);
  expect(signup?.headers()["strict-transport-security"]).toContain("max-age=31536000");
  await page.getByLabel("Name").fill("Paula Proxy");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("proxy-pass-42");
  await page.getByRole("button", { name: "Sign Up", exact: true }).click();
  // A new account goes on to the catalogue; the profile waits on its own page.
  await expect(page).toHaveURL(`${proxy.url}/parts`);
  await page.goto(`${proxy.url}/dashboard`);
  await expect(page.getByTestId("profile-details")).toContainText(email);

  // Over HTTPS the session cookie takes the __Host- prefix: Secure, path /, no Domain, so no subdomain can set it.
  const cookies = await context.cookies(proxy.url);
  expect(cookies.find((cookie) => cookie.name === "__session")).toBeUndefined();
  const session = cookies.find((cookie) => cookie.name === "__Host-session");
  expect(session?.secure).toBe(true);
  expect(session?.httpOnly).toBe(true);
  expect(session?.path).toBe("/");

  await page.getByRole("button", { name: "Sign Out" }).click();
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Login" }).first(),
  ).toBeVisible();

  await page.goto(`${proxy.url}/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("proxy-pass-42");
  await page.getByRole("button", { name: "Login", exact: true }).click();
  await expect(page).toHaveURL(`${proxy.url}/dashboard/orders`);
  await page.goto(`${proxy.url}/dashboard`);
  await expect(page.getByTestId("profile-details")).toContainText(email);
});

test("a customer's order form posts through the proxy", async ({ page, createPart }) => {
  const user = await createUser({ name: "Olga Order" });
  const part = await createPart({ minOrderQuantity: 100, availableQuantity: 1000 });
  await page.goto(`${proxy.url}/login`);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Login", exact: true }).click();
  await expect(page).toHaveURL(`${proxy.url}/dashboard/orders`);
  await page.goto(`${proxy.url}/parts/${part.id}`);
  await page.getByLabel("Phone").fill("555-0100");
  await fillDeliveryAddress(page);
  await page.getByRole("button", { name: "Buy", exact: true }).click();
  await expect(page).toHaveURL(`${proxy.url}/dashboard/orders`);
  await expect(page.getByText(part.name).first()).toBeVisible();
});

// Tagged @js-on: an HTTP client's headers, not a browser's: once is enough.
test(
  "the client address and request id come from the proxy; a client's own X-Forwarded-For is not believed",
  { tag: "@js-on" },
  async () => {
    // From another loopback address than nginx's own connection to the shop (127.0.0.1).
    const answer = await new Promise<{ status: number; requestId: string }>((resolve, reject) => {
      const req = request(
        `${proxy.url}/blogs?token=secret-in-query`,
        { localAddress: "127.0.0.7", rejectUnauthorized: false, headers: { "X-Forwarded-For": "203.0.113.9" } },
        (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0, requestId: String(res.headers["x-request-id"]) }));
        },
      );
      req.on("error", reject);
      req.end();
    });
    expect(answer.status).toBe(200);
    // nginx's $request_id (32 hex digits), handed on because the proxy is trusted.
    expect(answer.requestId).toMatch(/^[0-9a-f]{32}$/);
    await expect.poll(() => requestLineOf(answer.requestId, log)?.req?.path).toBe("/blogs");
    const line = requestLineOf(answer.requestId, log)!;
    expect(line.req?.ip).toBe("127.0.0.7");
    expect(line.res?.status).toBe(200);
    expect(typeof line.responseTime).toBe("number");
    expect(JSON.stringify(line)).not.toContain("secret-in-query");
    expect(JSON.stringify(line)).not.toContain("203.0.113.9");
  },
);
