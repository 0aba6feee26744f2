/**
 * The HTTP platform, over HTTP against the running shop: security headers (helmet), request ids and
 * the request log, malformed and oversized bodies, and redirects after sign-in that stay on the shop.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, test } from "vitest";
import { Part } from "~/models/part.server";
import { User } from "~/models/user.server";
import { createOrder } from "../setup/order-factories";
import { createUser, TEST_PASSWORD } from "../setup/factories";
import { nginxConfig } from "../setup/nginx";
import { logLinesOf, requestLineOf, shopLog } from "../setup/shop-log";
import { signedIn, snapshot } from "./ordering.helpers";

const SHOP = process.env.SHOP_URL!;

describe("security headers", () => {
  test("every page gets helmet's defaults and a CSP whose nonce is the one on the page's scripts", async () => {
    const response = await fetch(`${SHOP}/parts`);
    const csp = response.headers.get("content-security-policy") ?? "";
    const html = await response.text();
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(html).toContain(`nonce="${nonce}"`);
    expect(html).not.toMatch(new RegExp(`<script(?![^>]*nonce="${nonce!.replace(/[+/=]/g, "\\$&")}")[^>]*>`));
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain("stripe.com");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(response.headers.get("cross-origin-opener-policy")).toBe("same-origin");
    expect(response.headers.get("cross-origin-resource-policy")).toBe("same-origin");
    expect(response.headers.get("x-powered-by")).toBeNull();
    // Served over plain http here: no HSTS (tests/e2e/proxy.spec.ts checks it over https).
    expect(response.headers.get("strict-transport-security")).toBeNull();
  });

  test("each answer has its own nonce", async () => {
    const nonces = await Promise.all(
      [1, 2, 3].map(
        async () => /'nonce-([^']+)'/.exec((await fetch(`${SHOP}/blogs`)).headers.get("content-security-policy")!)?.[1],
      ),
    );
    expect(new Set(nonces).size).toBe(3);
  });

  test("only the pay screen admits Stripe", async () => {
    const { user, cookie } = await signedIn();
    const order = await createOrder({ user });
    for (const path of [`/dashboard/payment/${order.id}`]) {
      const csp = (await fetch(`${SHOP}${path}`, { headers: { Cookie: cookie }, redirect: "manual" })).headers.get(
        "content-security-policy",
      );
      expect(csp, path).toContain("https://js.stripe.com");
      expect(csp, path).toContain("form-action 'self' https://checkout.stripe.com");
    }
    for (const path of ["/", "/dashboard/orders", "/dashboard/paymentx", `/dashboard/payment/${order.id}/success`]) {
      const csp = (await fetch(`${SHOP}${path}`, { headers: { Cookie: cookie }, redirect: "manual" })).headers.get(
        "content-security-policy",
      );
      expect(csp, path).not.toContain("stripe.com");
    }
  });
});

describe("request ids", () => {
  test("every answer carries a generated X-Request-Id; one sent by a client is not trusted without TRUST_PROXY", async () => {
    const first = await fetch(`${SHOP}/blogs`);
    const second = await fetch(`${SHOP}/blogs`, { headers: { "X-Request-Id": "chosen-by-the-client" } });
    expect(first.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
  });
});

describe("the request log", () => {
  test("a signed-in request's line has its method, path, status, duration, request id and user id", async () => {
    const { user, cookie } = await signedIn();
    const response = await fetch(`${SHOP}/dashboard/orders?page=1`, {
      headers: { Cookie: cookie },
      redirect: "manual",
    });
    expect(response.status).toBe(200);
    const requestId = response.headers.get("x-request-id")!;
    await expect.poll(() => requestLineOf(requestId)).toBeTruthy();
    const line = requestLineOf(requestId)!;
    expect(line.req).toMatchObject({ id: requestId, method: "GET", path: "/dashboard/orders" });
    expect(line.res).toEqual({ status: 200 });
    expect(line.responseTime).toEqual(expect.any(Number));
    expect(line.userId).toBe(user.id);
    // The path without its query; no header of the request.
    expect(JSON.stringify(line)).not.toContain("page=1");
    expect(JSON.stringify(line)).not.toContain(cookie.slice(cookie.indexOf("=") + 1));
  });

  test("a visitor's line names no user", async () => {
    const response = await fetch(`${SHOP}/blogs`);
    const requestId = response.headers.get("x-request-id")!;
    await expect.poll(() => requestLineOf(requestId)).toBeTruthy();
    expect(requestLineOf(requestId)).not.toHaveProperty("userId");
  });

  test("a POST /login is logged without the password, the cookies either way, or any token", async () => {
    const user = await createUser();
    const secrets = {
      wrongPassword: `wrong-${randomUUID()}`,
      bearer: `bearer-${randomUUID()}`,
      cookieSent: `cookie-${randomUUID()}`,
      queryToken: `token-${randomUUID()}`,
    };
    const login = (password: string) =>
      fetch(`${SHOP}/login?token=${secrets.queryToken}`, {
        method: "POST",
        redirect: "manual",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Origin: SHOP,
          Cookie: `__toast=${secrets.cookieSent}; other=${secrets.cookieSent}`,
          Authorization: `Bearer ${secrets.bearer}`,
        },
        body: new URLSearchParams({
          email: user.email,
          password,
          redirectTo: `/dashboard?token=${secrets.queryToken}`,
        }),
      });

    const refused = await login(secrets.wrongPassword);
    expect(refused.status).toBe(401);
    const signedInAnswer = await login(TEST_PASSWORD);
    expect(signedInAnswer.status).toBe(302);
    const setCookies = signedInAnswer.headers
      .getSetCookie()
      .map((header) => header.split(";")[0].slice(header.indexOf("=") + 1))
      .filter((value) => value.length > 0);
    expect(setCookies.length).toBeGreaterThan(0);

    const ids = [refused, signedInAnswer].map((answer) => answer.headers.get("x-request-id")!);
    for (const id of ids) await expect.poll(() => requestLineOf(id)).toBeTruthy();
    const log = shopLog();
    for (const id of ids) {
      const line = requestLineOf(id, log)!;
      expect(line.req).toMatchObject({ method: "POST", path: "/login" });
      const logged = JSON.stringify(logLinesOf(id, log));
      expect(logged).not.toContain(TEST_PASSWORD);
      for (const value of [...Object.values(secrets), ...setCookies]) expect(logged).not.toContain(value);
    }
    // Nor in any other line the shop wrote meanwhile.
    for (const value of [...Object.values(secrets), ...setCookies]) {
      expect(log).not.toContain(value);
    }
  });
});

describe("what caches may keep (docs/deployment.md)", () => {
  test("the sitemap and robots.txt may be kept an hour by anyone", async () => {
    for (const path of ["/sitemap.xml", "/robots.txt", "/sitemaps/pages"]) {
      const response = await fetch(`${SHOP}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("cache-control"), path).toBe("public, max-age=3600");
    }
  });

  test("pages opened from a link with a token are never stored and never named to another site", async () => {
    const token = `token-${randomUUID()}`;
    for (const page of ["/reset-password", "/verify-email", "/change-email", "/unsubscribe"]) {
      const response = await fetch(`${SHOP}${page}?token=${token}`, { redirect: "manual" });
      expect(response.headers.get("cache-control"), page).toBe("no-store");
      // The last policy named is the one browsers follow.
      expect(response.headers.get("referrer-policy")?.split(/,\s*/).at(-1), page).toBe("same-origin");
    }
  });
});

/** A raw GET that keeps the body as sent (fetch would decompress it) and the headers as they came. */
function rawGet(path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; body: Buffer; headers: Record<string, string | string[] | undefined> }>(
    (resolve, reject) => {
      const req = httpRequest(new URL(path, SHOP), { headers: { Connection: "close", ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: res.headers }),
        );
      });
      req.on("error", reject);
      req.end();
    },
  );
}

describe("the build's scripts and stylesheet", () => {
  test("are compressed once at build time, sent as the browser accepts, and kept a year", async () => {
    const { cookie } = await signedIn();
    const part = await Part.findOne().select({ _id: 1 }).lean();
    const html = await (await fetch(`${SHOP}/parts/${part!._id}`, { headers: { Cookie: cookie } })).text();
    const stylesheet = /<link rel="stylesheet" href="(\/build\/[^"]+\.css)"/.exec(html)?.[1];
    const script = /<link rel="modulepreload"[^>]*href="(\/build\/[^"]+\.js)"/.exec(html)?.[1];
    expect(stylesheet).toBeTruthy();
    expect(script).toBeTruthy();
    for (const asset of [stylesheet!, script!]) {
      const plain = await rawGet(asset, { "Accept-Encoding": "identity" });
      expect(plain.status, asset).toBe(200);
      expect(plain.headers["content-encoding"], asset).toBeUndefined();
      for (const [accepted, sent, decode] of [
        ["br, gzip", "br", brotliDecompressSync],
        ["gzip", "gzip", gunzipSync],
      ] as const) {
        const answer = await rawGet(asset, { "Accept-Encoding": accepted });
        expect(answer.headers["content-encoding"], `${asset} for ${accepted}`).toBe(sent);
        expect(answer.headers.vary, asset).toMatch(/accept-encoding/i);
        expect(answer.headers["cache-control"], asset).toBe("public, max-age=31536000, immutable");
        expect(answer.headers["x-content-type-options"], asset).toBe("nosniff");
        expect(decode(answer.body).equals(plain.body), `${asset} as ${sent} is the file`).toBe(true);
      }
    }
  });

  test("a page's scripts are fetched at low priority, after what its first paint needs", async () => {
    const { cookie } = await signedIn();
    const html = await (await fetch(`${SHOP}/dashboard/cart`, { headers: { Cookie: cookie } })).text();
    const preloads = html.match(/<link rel="modulepreload"[^>]*>/g) ?? [];
    expect(preloads.length).toBeGreaterThan(3);
    for (const link of preloads) expect(link).toContain('fetchpriority="low"');
  });
});

/** A raw POST, so that any body and headers can be sent (fetch would fix some of them). */
function rawPost(path: string, body: string | Buffer, headers: Record<string, string>) {
  return new Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }>(
    (resolve, reject) => {
      const url = new URL(path, SHOP);
      const req = httpRequest(
        url,
        { method: "POST", headers: { Origin: url.origin, Connection: "close", ...headers } },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk) => (text += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
        },
      );
      // A server may answer before it has read the whole body; the answer is what counts.
      req.on("error", reject);
      req.end(body);
    },
  );
}

describe("malformed bodies answer 400 with a message, never 500, and write nothing", () => {
  const BROKEN_MULTIPART = {
    body: '--XYZ\r\nContent-Disposition: form-data; name="email"\r\n\r\nnot closed',
    type: "multipart/form-data; boundary=XYZ",
  };
  const JSON_BODY = { body: JSON.stringify({ email: "a@b.c", password: "x" }), type: "application/json" };
  const NO_TYPE = { body: "email=a%40b.c&password=x", type: "" };
  const EMPTY = { body: "", type: "" };
  const cases = Object.entries({ BROKEN_MULTIPART, JSON_BODY, NO_TYPE, EMPTY });

  async function routes() {
    const customer = await signedIn();
    const admin = await signedIn("admin");
    const order = await createOrder({ user: customer.user });
    return [
      { path: "/login", cookie: "" },
      { path: "/signup", cookie: "" },
      { path: "/dashboard?index", cookie: customer.cookie },
      { path: "/dashboard/allUsers", cookie: admin.cookie },
      { path: `/dashboard/payment/${order.id}`, cookie: customer.cookie },
      { path: "/dashboard/review", cookie: customer.cookie },
      { path: `/parts/${order.lines[0].partId}`, cookie: customer.cookie },
      { path: "/dashboard/manageOrders", cookie: admin.cookie },
    ];
  }

  test.each(cases)("%s", async (_label, { body, type }) => {
    const targets = await routes();
    const before = await snapshot();
    const users = await User.countDocuments();
    for (const { path, cookie } of targets) {
      const headers: Record<string, string> = {
        ...(type ? { "Content-Type": type } : {}),
        ...(cookie ? { Cookie: cookie } : {}),
      };
      const response = await rawPost(path, body, headers);
      expect(response.status, `${path}: ${response.body.slice(0, 200)}`).toBe(400);
      expect(response.body, path).toMatch(/web form|could not be read/);
    }
    expect(await snapshot()).toEqual(before);
    expect(await User.countDocuments()).toBe(users);
  });

  test("a body over the limit is refused with 413, whether it declares its length or not", async () => {
    const big = "email=" + "a".repeat(1024 * 1024 + 10);
    const declared = await rawPost("/login", big, { "Content-Type": "application/x-www-form-urlencoded" });
    expect(declared.status).toBe(413);
    const chunked = await rawPost("/signup", big, {
      "Content-Type": "application/x-www-form-urlencoded",
      "Transfer-Encoding": "chunked",
    });
    expect(chunked.status).toBe(413);
  });
});

describe("a body the answer did not wait for", () => {
  /**
   * A client on one keep-alive connection, as a browser is: a POST of `body` to `path`, then a GET
   * of /blogs. Each answer with its status and when it had arrived; a client left waiting gives up
   * after 3 s (without the drain the second request waited for the server's headers timeout, 66 s).
   */
  async function postThenGet(path: string, body: Buffer) {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const started = Date.now();
    const send = (method: string, target: string, payload?: Buffer) =>
      new Promise<{ status: number; ms: number }>((resolve) => {
        const url = new URL(target, SHOP);
        const headers: Record<string, string> = payload
          ? {
              Origin: url.origin,
              "Content-Type": "application/x-www-form-urlencoded",
              "Content-Length": `${payload.length}`,
            }
          : {};
        const req = httpRequest(url, { agent, method, headers, timeout: 3000 }, (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: Date.now() - started }));
        });
        req.on("timeout", () => {
          req.destroy();
          resolve({ status: 0, ms: Date.now() - started });
        });
        req.on("error", () => resolve({ status: -1, ms: Date.now() - started }));
        req.end(payload);
      });
    try {
      return [await send("POST", path, body), await send("GET", "/blogs")];
    } finally {
      agent.destroy();
    }
  }

  const body = Buffer.from(`note=${"a".repeat(900 * 1024)}`);

  test.each([
    ["a page with no action (405)", "/blogs", 405],
    ["an action that sends a visitor to sign in before it reads the form", "/dashboard/review", 302],
  ])("%s: a 900 KB body does not hold up the answer or the connection's next request", async (_label, path, status) => {
    const [posted, next] = await postThenGet(path, body);
    expect(posted.status).toBe(status);
    expect(next.status).toBe(200);
    expect(next.ms).toBeLessThan(1000);
  });
});

describe("redirects after sign-in stay on the shop", () => {
  const tricks = [
    "/\t/evil.example",
    "/%09/evil.example",
    "//evil.example",
    "/\\evil.example",
    "/%5Cevil.example",
    "https://evil.example/",
    "/.//evil.example",
  ];

  test.each(tricks)("the login form's redirectTo %j lands on the shop", async (redirectTo) => {
    const user = await createUser();
    const response = await fetch(`${SHOP}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: SHOP },
      body: new URLSearchParams({ email: user.email, password: TEST_PASSWORD, redirectTo }),
    });
    expect(response.status).toBe(302);
    const location = response.headers.get("location")!;
    expect(new URL(location, "https://shop.example.com").origin).toBe("https://shop.example.com");
  });

  test.each(tricks)(
    "the login page's ?redirectTo=%j carries only a path on the shop into its form",
    async (redirectTo) => {
      const html = await (await fetch(`${SHOP}/login?${new URLSearchParams({ redirectTo })}`)).text();
      const carried = /name="redirectTo"[^>]*value="([^"]*)"|value="([^"]*)"[^>]*name="redirectTo"/.exec(html);
      const value = (carried?.[1] ?? carried?.[2] ?? "").replace(/&amp;/g, "&");
      expect(new URL(value || "/", "https://shop.example.com").origin).toBe("https://shop.example.com");
    },
  );

  test("a local page is kept", async () => {
    const user = await createUser();
    const response = await fetch(`${SHOP}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: SHOP },
      body: new URLSearchParams({ email: user.email, password: TEST_PASSWORD, redirectTo: "/parts?q=brake" }),
    });
    expect(response.headers.get("location")).toBe("/parts?q=brake");
  });

  test("a signed-out client-side navigation is sent to sign in and back to the page, not to its data request", async () => {
    // What the browser asks when it moves to /dashboard/orders?page=2 from another dashboard page.
    const response = await fetch(`${SHOP}/dashboard/orders.data?page=2&_routes=routes%2Fdashboard.orders`, {
      redirect: "manual",
    });
    // Single fetch answers a redirect inside its data (202), for the client router to follow.
    expect(response.status).toBe(202);
    const body = await response.text();
    expect(body).toContain(`/login?${new URLSearchParams({ redirectTo: "/dashboard/orders?page=2" })}`);
    expect(body).not.toContain("_routes");
  });
});

describe("the error page", () => {
  test("a missing page is a 404 that names no request id; the id is in the header", async () => {
    const response = await fetch(`${SHOP}/no-such-page-${randomUUID()}`);
    expect(response.status).toBe(404);
    expect(response.headers.get("x-request-id")).toBeTruthy();
  });
});

describe("the documented nginx configuration", () => {
  /** The directives of `location /`, and the body size limit, without comments or layout. */
  function proxySettings(config: string) {
    const location = /location \/ \{([^}]*)\}/.exec(config)?.[1] ?? "";
    const directives = location
      .split("\n")
      .map((line) => line.replace(/#.*/, "").trim())
      .filter(Boolean);
    return { directives, bodyLimit: /client_max_body_size \S+;/.exec(config)?.[0] };
  }

  test("the deployment guide gives the proxy settings the nginx test runs, and is the one place that does", () => {
    const tested = proxySettings(nginxConfig({ dir: "/srv/nginx", port: 443, upstream: "http://127.0.0.1:3000" }));
    expect(tested.directives).toContain("proxy_pass http://127.0.0.1:3000;");
    const doc = (file: string) => readFileSync(path.resolve(import.meta.dirname, "../..", file), "utf8");
    const block = /```nginx\n([\s\S]*?)```/.exec(doc("docs/deployment.md"))?.[1] ?? "";
    expect(proxySettings(block)).toEqual(tested);
    expect(doc("README.md")).not.toContain("```nginx");
    expect(doc("README.md")).toContain("(docs/deployment.md#behind-nginx-or-a-cdn)");
  });
});
