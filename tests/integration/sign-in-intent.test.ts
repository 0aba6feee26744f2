/**
 * A visitor's work survives the sign-in: an Add to cart or a Buy waits in a signed cookie through
 * Login and Create account and goes into the cart right after; quick-order lines come back on the
 * pad. Without a destination, people start on their own page (cart, My Orders, Shop Today).
 */
import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { getCart } from "~/models/cart.server";
import { Company } from "~/models/company.server";
import { User } from "~/models/user.server";
import { action as cartAction } from "~/routes/dashboard.cart";
import { action as loginAction, loader as loginLoader } from "~/routes/login";
import { action as partAction } from "~/routes/parts.$id";
import { action as quickOrderAction, loader as quickOrderLoader } from "~/routes/dashboard.quick-order";
import { action as signupAction, loader as signupLoader } from "~/routes/signup";
import { createPart, createUser, TEST_PASSWORD } from "../setup/factories";
import { getRequest, postRequest, settle, testContext } from "../setup/requests";
import { toastOf } from "./ordering.helpers";

const args = (request: Request, params: Record<string, string> = {}) => ({
  request,
  params,
  context: testContext({ clientIp: `198.51.100.${Math.floor(Math.random() * 250) + 1}-${randomUUID().slice(0, 6)}` }),
});

/** The cookies a response sets, as the browser would send them back (cleared ones left out). */
function cookiesFrom(...responses: Response[]) {
  const jar = new Map<string, string>();
  for (const response of responses) {
    for (const cookie of response.headers.getSetCookie()) {
      const pair = cookie.split(";")[0];
      const name = pair.slice(0, pair.indexOf("="));
      if (/Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(cookie)) jar.delete(name);
      else jar.set(name, pair);
    }
  }
  return [...jar.values()].join("; ");
}

/** A visitor presses Add to cart on the catalogue: the answer sends them to Login with the line kept. */
async function visitorAddsToCart(partId: string, quantity: string, from = "/parts?q=plug") {
  const response = await settle(
    cartAction(args(postRequest("/dashboard/cart", { intent: "add", partId, quantity, redirectTo: from }))),
  );
  expect(response.status).toBe(302);
  expect(response.headers.get("Location")).toBe(`/login?${new URLSearchParams({ redirectTo: from })}`);
  return cookiesFrom(response);
}

describe("a visitor's Add to cart waits through the sign-in", () => {
  test("Login: the line is in the cart and the visitor is back on the catalogue page, with a toast", async () => {
    const part = await createPart({ name: "Spark Plug Iridium", availableQuantity: 5000 });
    const cookie = await visitorAddsToCart(part.id, "300");
    const user = await createUser();
    const response = await settle(
      loginAction(
        args(
          postRequest(
            "/login",
            { email: user.email, password: TEST_PASSWORD, redirectTo: "/parts?q=plug" },
            { cookie },
          ),
        ),
      ),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/parts?q=plug");
    expect((await toastOf(response))?.message).toBe(`300 × ${part.partNumber} ${part.name} added to your cart`);
    const cart = await getCart(user.id);
    expect(cart.lines.map((line) => [line.partId, line.quantity])).toEqual([[part.id, 300]]);
    // The intent is read once: the cookie is cleared.
    expect(cookiesFrom(response)).not.toContain("__intent=");
  });

  test("Create account: the new customer returns where they were, with the line in the cart", async () => {
    const part = await createPart({ availableQuantity: 5000 });
    const cookie = await visitorAddsToCart(part.id, "250", `/parts/${part.id}`);
    const email = `new-${randomUUID().slice(0, 8)}@example.com`;
    const response = await settle(
      signupAction(
        args(
          postRequest(
            "/signup",
            { name: "Nora New", email, password: "a-long-secret-42", redirectTo: `/parts/${part.id}` },
            { cookie },
          ),
        ),
      ),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/parts/${part.id}`);
    expect((await toastOf(response))?.message).toContain("250 × ");
    const user = await User.findOne({ email }).lean();
    expect((await getCart(String(user!._id))).lines.map((line) => line.quantity)).toEqual([250]);
  });

  test("a Buy posted after the session ended goes into the cart after the sign-in, back on the part", async () => {
    const part = await createPart({ availableQuantity: 5000 });
    const response = await settle(
      partAction(args(postRequest(`/parts/${part.id}`, { quantity: "400", phone: "555" }), { id: part.id })),
    );
    expect(response.headers.get("Location")).toBe(`/login?${new URLSearchParams({ redirectTo: `/parts/${part.id}` })}`);
    const user = await createUser();
    const signedIn = await settle(
      loginAction(
        args(
          postRequest(
            "/login",
            { email: user.email, password: TEST_PASSWORD, redirectTo: `/parts/${part.id}` },
            { cookie: cookiesFrom(response) },
          ),
        ),
      ),
    );
    expect(signedIn.headers.get("Location")).toBe(`/parts/${part.id}`);
    expect((await getCart(user.id)).lines.map((line) => line.quantity)).toEqual([400]);
  });

  test("quick-order lines come back on the pad after the sign-in, once", async () => {
    const lines = "PW-1001 150\nPW-1003 200";
    const response = await settle(
      quickOrderAction(args(postRequest("/dashboard/quick-order", { intent: "check", lines }))),
    );
    expect(response.headers.get("Location")).toBe(
      `/login?${new URLSearchParams({ redirectTo: "/dashboard/quick-order" })}`,
    );
    const user = await createUser();
    const signedIn = await settle(
      loginAction(
        args(
          postRequest(
            "/login",
            { email: user.email, password: TEST_PASSWORD, redirectTo: "/dashboard/quick-order" },
            { cookie: cookiesFrom(response) },
          ),
        ),
      ),
    );
    expect(signedIn.headers.get("Location")).toBe("/dashboard/quick-order");
    const page = await settle(
      quickOrderLoader(args(getRequest("/dashboard/quick-order", { cookie: cookiesFrom(response, signedIn) }))),
    );
    expect(((await page.json()) as { keptLines: string }).keptLines).toBe(lines);
    expect(cookiesFrom(response, signedIn, page)).not.toContain("__intent=");
  });

  test("another cart form posted without a session goes back to the cart, keeping nothing", async () => {
    const part = await createPart();
    const response = await settle(
      cartAction(args(postRequest("/dashboard/cart", { intent: "update", partId: part.id, quantity: "200" }))),
    );
    expect(response.headers.get("Location")).toBe(`/login?${new URLSearchParams({ redirectTo: "/dashboard/cart" })}`);
    expect(cookiesFrom(response)).not.toContain("__intent=");
  });

  test("a forged or tampered intent cookie adds nothing", async () => {
    const part = await createPart({ availableQuantity: 5000 });
    const cookie = (await visitorAddsToCart(part.id, "300")).replace(/__intent=([^;]+)/, (_, value: string) => {
      const [payload, signature] = decodeURIComponent(value).split(".");
      const forged = Buffer.from(
        JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64").toString()), quantity: 9000 }),
      ).toString("base64");
      return `__intent=${encodeURIComponent(`${forged}.${signature}`)}`;
    });
    const user = await createUser();
    await settle(loginAction(args(postRequest("/login", { email: user.email, password: TEST_PASSWORD }, { cookie }))));
    expect((await getCart(user.id)).lines).toEqual([]);
  });

  test("an accounts member's sign-in adds nothing and says why", async () => {
    const part = await createPart({ availableQuantity: 5000 });
    const cookie = await visitorAddsToCart(part.id, "300");
    const company = await Company.create({ companyName: `Accounts Co ${randomUUID().slice(0, 6)}` });
    const clerk = await createUser({ company: { id: String(company._id), role: "accounts" } });
    const response = await settle(
      loginAction(args(postRequest("/login", { email: clerk.email, password: TEST_PASSWORD }, { cookie }))),
    );
    expect((await toastOf(response))?.message).toContain("ask a buyer or an owner");
    expect((await getCart(clerk.id)).lines).toEqual([]);
  });
});

describe("where a sign-in lands when nothing named a page", () => {
  test("a customer with an empty cart: My Orders; with lines: the cart; an admin: Shop Today", async () => {
    const signIn = async (email: string) =>
      (await settle(loginAction(args(postRequest("/login", { email, password: TEST_PASSWORD }))))).headers.get(
        "Location",
      );
    const customer = await createUser();
    expect(await signIn(customer.email)).toBe("/dashboard/orders");
    const part = await createPart();
    const { addToCart } = await import("~/models/cart.server");
    await addToCart(customer.id, part.id, 100);
    expect(await signIn(customer.email)).toBe("/dashboard/cart");
    const admin = await createUser({ role: "admin" });
    expect(await signIn(admin.email)).toBe("/dashboard/admin");
  });

  test("the home page the visitor came from is not a destination", async () => {
    const request = new Request(new URL("/login", process.env.SHOP_URL ?? "http://localhost:3000"), {
      headers: { Referer: `${process.env.SHOP_URL ?? "http://localhost:3000"}/` },
    });
    const data = (await (await settle(loginLoader(args(request)))).json()) as { redirectTo: string };
    expect(data.redirectTo).toBe("");
  });

  test("Login and Create account link to each other with the page to return to", async () => {
    const page = (await (
      await settle(signupLoader(args(getRequest("/signup?redirectTo=%2Fparts%3Fq%3Dplug"))))
    ).json()) as { redirectTo: string };
    expect(page.redirectTo).toBe("/parts?q=plug");
    const offSite = (await (
      await settle(signupLoader(args(getRequest("/signup?redirectTo=https%3A%2F%2Fevil.example"))))
    ).json()) as { redirectTo: string };
    expect(offSite.redirectTo).toBe("");
  });
});
