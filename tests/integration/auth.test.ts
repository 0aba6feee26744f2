import { randomUUID } from "node:crypto";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { describe, expect, test } from "vitest";
import { Session } from "~/models/session.server";
import { User } from "~/models/user.server";
import { action as allUsersAction, loader as allUsersLoader } from "~/routes/dashboard.allUsers";
import { action as profileAction, loader as profileLoader } from "~/routes/dashboard._index/route";
import { loader as dashboardLoader } from "~/routes/dashboard";
import { action as loginAction } from "~/routes/login";
import { action as logoutAction } from "~/routes/logout";
import { action as signupAction } from "~/routes/signup";
import { getSessionId } from "~/services/session-cookie.server";
import {
  getUser,
  requireCustomer,
  requireCustomerOrSignOutHome,
  requireUserOrSignOutHome,
} from "~/services/guards.server";
import { createUser, sessionCookieValue, TEST_PASSWORD } from "../setup/factories";
import { getRequest, postRequest, settle, testContext } from "../setup/requests";
import { toastOf } from "./ordering.helpers";

const uniqueEmail = (label = "user") => `${label}-${randomUUID().slice(0, 8)}@example.com`;
const testIp = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}-${randomUUID().slice(0, 6)}`;

function args(request: Request, clientIp = testIp()): ActionFunctionArgs & LoaderFunctionArgs {
  return { request, params: {}, context: testContext({ clientIp }) };
}

/** The `name=value` pairs a response sets, ready to send back as a Cookie header. */
function cookiesFrom(response: Response) {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

function sessionCookieCleared(response: Response) {
  return response.headers
    .getSetCookie()
    .some((cookie) => cookie.startsWith("__session=;") && /Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(cookie));
}

/** The message of the signed toast cookie a response sets, read back as the next page would. */
async function toastMessage(response: Response) {
  return (await toastOf(response))?.message ?? null;
}

async function body(response: Response) {
  return (await response.json()) as { status?: string; error?: Record<string, string[] | null> };
}

describe("sign-up", () => {
  test("creates a customer with an argon2id hash, signs them in and lands on the catalogue, not the profile form", async () => {
    const email = uniqueEmail("new");
    const response = await settle(
      signupAction(
        args(postRequest("/signup", { name: "Nina New", email: email.toUpperCase(), password: "secret-pass" })),
      ),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/parts");
    const stored = await User.findOne({ email }).select("+passwordHash").lean();
    expect(stored).toMatchObject({ name: "Nina New", role: "customer" });
    expect(stored?.passwordHash).toMatch(/^\$argon2id\$/);
    const user = await getUser(getRequest("/dashboard", { cookie: cookiesFrom(response) }));
    expect(user?.email).toBe(email);
  });

  test("refuses an email that already has an account, next to the email field, and writes nothing", async () => {
    const existing = await createUser();
    const response = await settle(
      signupAction(
        args(
          postRequest("/signup", { name: "Copy Cat", email: existing.email.toUpperCase(), password: "secret-pass" }),
        ),
      ),
    );
    expect(response.status).toBe(409);
    expect((await body(response)).error?.email).toEqual(["An account with this email already exists"]);
    expect(await User.countDocuments({ email: existing.email })).toBe(1);
  });

  test.each([
    [{}, { name: ["Name is Required"], email: ["Email is Required"], password: ["Password is Required"] }],
    [
      { name: "A", email: "not-an-email", password: "12345" },
      { email: ["Provide a valid Email"], password: ["Must be 6 characters or longer"] },
    ],
    [{ name: "   ", email: "a@b.co", password: "123456" }, { name: ["Name is Required"] }],
    [
      { name: "x".repeat(101), email: "a@b.co", password: "123456" },
      { name: ["Name must be 100 characters or fewer"] },
    ],
    [{ name: "Op", email: '{"$gt": ""}', password: "123456" }, { email: ["Provide a valid Email"] }],
    [{ name: "Long", email: "a@b.co", password: "p".repeat(129) }, { password: ["Must be 128 characters or fewer"] }],
  ])("bad input %j gets 400 with the messages next to the fields and writes nothing", async (fields, expected) => {
    const before = await User.countDocuments();
    const response = await settle(signupAction(args(postRequest("/signup", fields as Record<string, string>))));
    expect(response.status).toBe(400);
    const { error } = await body(response);
    for (const [field, messages] of Object.entries(expected)) expect(error?.[field]).toEqual(messages);
    expect(await User.countDocuments()).toBe(before);
  });
});

describe("login", () => {
  test.each([
    [{}, { email: ["Email is Required"], password: ["Password is Required"] }],
    [
      { email: "nobody", password: "123" },
      { email: ["Provide a valid Email"], password: ["Must be 6 characters or longer"] },
    ],
  ])("bad input %j gets 400 with the spec's messages", async (fields, expected) => {
    const response = await settle(loginAction(args(postRequest("/login", fields as Record<string, string>))));
    expect(response.status).toBe(400);
    const { error } = await body(response);
    for (const [field, messages] of Object.entries(expected)) expect(error?.[field]).toEqual(messages);
    expect(response.headers.getSetCookie().join()).not.toContain("__session=");
  });

  test("returns to a safe redirectTo with a new session", async () => {
    const user = await createUser();
    const response = await settle(
      loginAction(
        args(postRequest("/login", { email: user.email, password: TEST_PASSWORD, redirectTo: "/parts?page=2" })),
      ),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/parts?page=2");
    expect((await getUser(getRequest("/", { cookie: cookiesFrom(response) })))?.id).toBe(user.id);
  });

  test.each(["//evil.example/steal", "https://evil.example/", "/\\evil.example"])(
    "never redirects off the site (redirectTo=%s goes to the customer's own start page)",
    async (redirectTo) => {
      const user = await createUser();
      const response = await settle(
        loginAction(args(postRequest("/login", { email: user.email, password: TEST_PASSWORD, redirectTo }))),
      );
      expect(response.headers.get("Location")).toBe("/dashboard/orders");
    },
  );

  test("a wrong password, an unknown email and a Google-only account fail with the same message", async () => {
    const user = await createUser();
    const googleOnly = await User.create({ email: uniqueEmail("google"), name: "Gus Google", googleId: "g-123" });
    const attempts = [
      { email: user.email, password: "wrong-password" },
      { email: uniqueEmail("nobody"), password: TEST_PASSWORD },
      { email: googleOnly.email, password: TEST_PASSWORD },
    ];
    for (const fields of attempts) {
      const response = await settle(loginAction(args(postRequest("/login", fields))));
      expect(response.status).toBe(401);
      const result = await body(response);
      expect(result.error?.[""]).toEqual(["Invalid email or password"]);
      expect(response.headers.getSetCookie().join()).not.toContain("__session=");
    }
  });

  test("every login gets a new session id and the old session is deleted", async () => {
    const user = await createUser();
    const { sessionId: oldId, value } = await sessionCookieValue(user.id);
    const response = await settle(
      loginAction(
        args(postRequest("/login", { email: user.email, password: TEST_PASSWORD }, { cookie: `__session=${value}` })),
      ),
    );
    const newId = await getSessionId(getRequest("/", { cookie: cookiesFrom(response) }));
    expect(newId).toBeTruthy();
    expect(newId).not.toBe(oldId);
    expect(await Session.exists({ _id: oldId })).toBeNull();
    expect(await Session.exists({ _id: newId })).toBeTruthy();
  });

  test("the session cookie is httpOnly, SameSite=Lax and signed", async () => {
    const user = await createUser();
    const response = await settle(
      loginAction(args(postRequest("/login", { email: user.email, password: TEST_PASSWORD }))),
    );
    const cookie = response.headers.getSetCookie().find((value) => value.startsWith("__session="))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    // A tampered value is not accepted.
    const tampered = cookiesFrom(response).replace("__session=", "__session=A");
    expect(await getUser(getRequest("/", { cookie: tampered }))).toBeNull();
  });
});

describe("sessions", () => {
  test("after logout the old cookie no longer signs anyone in", async () => {
    const user = await createUser();
    const { sessionId, value } = await sessionCookieValue(user.id);
    const cookie = `__session=${value}`;
    const response = await settle(logoutAction(args(postRequest("/logout", {}, { cookie }))));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
    expect(sessionCookieCleared(response)).toBe(true);
    expect(await Session.exists({ _id: sessionId })).toBeNull();

    const again = await settle(dashboardLoader(args(getRequest("/dashboard", { cookie }))));
    expect(again.status).toBe(302);
    expect(again.headers.get("Location")).toBe("/login?redirectTo=%2Fdashboard");
  });

  test("My Orders' guard: an expired session signs out and goes to /", async () => {
    const user = await createUser();
    const { sessionId, value } = await sessionCookieValue(user.id);
    await Session.updateOne({ _id: sessionId }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    const response = await settle(
      requireUserOrSignOutHome(getRequest("/dashboard/orders", { cookie: `__session=${value}` })),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
    expect(sessionCookieCleared(response)).toBe(true);
    expect(await Session.exists({ _id: sessionId })).toBeNull();
  });

  test("My Orders' guard: a revoked session signs out and goes to /; no cookie goes to login; a live one passes", async () => {
    const user = await createUser();
    const { sessionId, value } = await sessionCookieValue(user.id);
    const cookie = `__session=${value}`;
    expect((await requireUserOrSignOutHome(getRequest("/dashboard/orders", { cookie }))).id).toBe(user.id);

    await Session.deleteOne({ _id: sessionId });
    const revoked = await settle(requireUserOrSignOutHome(getRequest("/dashboard/orders", { cookie })));
    expect(revoked.headers.get("Location")).toBe("/");
    expect(sessionCookieCleared(revoked)).toBe(true);

    const anonymous = await settle(requireUserOrSignOutHome(getRequest("/dashboard/orders")));
    expect(anonymous.headers.get("Location")).toBe("/login?redirectTo=%2Fdashboard%2Forders");
  });

  test("the dashboard layout applies the rule on My Orders, and sends to login elsewhere", async () => {
    const user = await createUser();
    const { sessionId, value } = await sessionCookieValue(user.id);
    const cookie = `__session=${value}`;
    await Session.updateOne({ _id: sessionId }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    const elsewhere = await settle(dashboardLoader(args(getRequest("/dashboard/review", { cookie }))));
    expect(elsewhere.headers.get("Location")).toBe("/login?redirectTo=%2Fdashboard%2Freview");
    const orders = await settle(dashboardLoader(args(getRequest("/dashboard/orders", { cookie }))));
    expect(orders.headers.get("Location")).toBe("/");
    expect(sessionCookieCleared(orders)).toBe(true);
  });

  test("an admin reaching a customer screen goes to /dashboard", async () => {
    const admin = await createUser({ role: "admin" });
    const cookie = `__session=${(await sessionCookieValue(admin.id)).value}`;
    for (const guard of [requireCustomer, requireCustomerOrSignOutHome]) {
      const response = await settle(guard(getRequest("/dashboard/orders", { cookie })));
      expect(response.headers.get("Location")).toBe("/dashboard");
    }
  });
});

describe("My Profile", () => {
  const fields = {
    name: "Paula Profile",
    number: "+1 (555) 010-2030",
    address: "12 Gear Street, Detroit",
    education: "BSc Mechanical Engineering",
    linkedin: "https://www.linkedin.com/in/paula",
  };

  test("saves the profile and says so for 1500 ms", async () => {
    const user = await createUser();
    const cookie = `__session=${(await sessionCookieValue(user.id)).value}`;
    const response = await settle(profileAction(args(postRequest("/dashboard?index", fields, { cookie }))));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard");
    expect(await toastMessage(response)).toBe("Update profile successfully");
    expect(await User.findById(user.id).lean()).toMatchObject(fields);

    // Emptied optional fields are cleared.
    await settle(profileAction(args(postRequest("/dashboard?index", { name: "Paula P" }, { cookie }))));
    const cleared = await User.findById(user.id).lean();
    expect(cleared?.name).toBe("Paula P");
    expect(cleared?.linkedin).toBeUndefined();
  });

  test("without a live session it changes nothing and says 'No user is logged in'", async () => {
    const user = await createUser({ name: "Unchanged Name" });
    const { sessionId, value } = await sessionCookieValue(user.id);
    await Session.deleteOne({ _id: sessionId });
    for (const cookie of [`__session=${value}`, undefined]) {
      const response = await settle(profileAction(args(postRequest("/dashboard?index", fields, { cookie }))));
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/login?redirectTo=%2Fdashboard");
      expect(await toastMessage(response)).toBe("No user is logged in");
    }
    expect((await User.findById(user.id).lean())?.name).toBe("Unchanged Name");
  });

  test.each([
    [{ ...fields, name: "" }, "name", "Name is Required"],
    [
      { ...fields, linkedin: "linkedin/paula" },
      "linkedin",
      "LinkedIn must be a web address starting with https:// or http://",
    ],
    [{ ...fields, number: "call me" }, "number", "Enter a phone number: digits, spaces and + ( ) - . /"],
    [{ ...fields, address: "a".repeat(301) }, "address", "Address must be 300 characters or fewer"],
  ])("bad input gets 400 with the message next to the field and writes nothing (%#)", async (input, field, message) => {
    const user = await createUser({ name: "Before Edit" });
    const cookie = `__session=${(await sessionCookieValue(user.id)).value}`;
    const response = await settle(profileAction(args(postRequest("/dashboard?index", input, { cookie }))));
    expect(response.status).toBe(400);
    expect((await body(response)).error?.[field]).toEqual([message]);
    expect((await User.findById(user.id).lean())?.name).toBe("Before Edit");
  });

  test("the profile loader sends a visitor without a session to login, coming back afterwards", async () => {
    const response = await settle(profileLoader(args(getRequest("/dashboard"))));
    expect(response.headers.get("Location")).toBe("/login?redirectTo=%2Fdashboard");
  });
});

describe("All Users and Make Admin", () => {
  test("over HTTP, where the layout's loader runs beside the page's, the customer always gets the reason", async () => {
    // The layout asks who is signed in while the page's loader signs the customer out: both must
    // see the same user, or the layout's "please sign in" redirect (without the reason) wins.
    for (let attempt = 0; attempt < 8; attempt++) {
      const customer = await createUser();
      const { sessionId, value } = await sessionCookieValue(customer.id);
      const response = await fetch(`${process.env.SHOP_URL}/dashboard/allUsers`, {
        headers: { Cookie: `__session=${value}` },
        redirect: "manual",
      });
      expect(response.status, `attempt ${attempt}`).toBe(302);
      expect(response.headers.get("Location"), `attempt ${attempt}`).toBe("/login");
      expect(await toastMessage(response)).toBe("That page is for admins only, so you have been signed out.");
      expect(await Session.exists({ _id: sessionId })).toBeNull();
    }
  });

  test("a customer opening All Users is signed out and sent to /login with the reason", async () => {
    const customer = await createUser();
    const { sessionId, value } = await sessionCookieValue(customer.id);
    const response = await settle(
      allUsersLoader(args(getRequest("/dashboard/allUsers", { cookie: `__session=${value}` }))),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login");
    expect(await toastMessage(response)).toBe("That page is for admins only, so you have been signed out.");
    expect(sessionCookieCleared(response)).toBe(true);
    expect(await Session.exists({ _id: sessionId })).toBeNull();
  });

  test("a request from anyone who is not an admin gets 403 'Failed to Make an admin' and changes nothing", async () => {
    const customer = await createUser();
    const target = await createUser();
    const cookie = `__session=${(await sessionCookieValue(customer.id)).value}`;
    for (const request of [
      postRequest("/dashboard/allUsers", { userId: target.id }, { cookie }),
      postRequest("/dashboard/allUsers", { userId: target.id }),
      postRequest("/dashboard/allUsers", { userId: customer.id }, { cookie }),
    ]) {
      const response = await settle(allUsersAction(args(request)));
      expect(response.status).toBe(403);
      expect(await response.text()).toBe("Failed to Make an admin");
    }
    expect((await User.findById(target.id).lean())?.role).toBe("customer");
    expect((await User.findById(customer.id).lean())?.role).toBe("customer");
  });

  test("an admin makes a customer an admin: 'Successfully made an admin'", async () => {
    const admin = await createUser({ role: "admin" });
    const target = await createUser();
    const cookie = `__session=${(await sessionCookieValue(admin.id)).value}`;
    const response = await settle(
      allUsersAction(args(postRequest("/dashboard/allUsers", { userId: target.id }, { cookie }))),
    );
    expect(response.status).toBe(302);
    expect(await toastMessage(response)).toBe("Successfully made an admin");
    expect((await User.findById(target.id).lean())?.role).toBe("admin");

    // Listed as admin now (the page hides Make Admin for admins).
    const page = await settle(allUsersLoader(args(getRequest("/dashboard/allUsers", { cookie }))));
    const data = (await page.json()) as { users: { id: string; role: string }[] };
    expect(data.users.find((user) => user.id === target.id)?.role).toBe("admin");
  });

  test("an admin cannot change their own role, and bad ids are refused", async () => {
    const admin = await createUser({ role: "admin" });
    const cookie = `__session=${(await sessionCookieValue(admin.id)).value}`;
    const self = await settle(
      allUsersAction(args(postRequest("/dashboard/allUsers", { userId: admin.id }, { cookie }))),
    );
    expect(self.status).toBe(400);
    for (const userId of ['{"$gt": ""}', "", "not-an-id"]) {
      const response = await settle(allUsersAction(args(postRequest("/dashboard/allUsers", { userId }, { cookie }))));
      expect(response.status).toBe(400);
    }
    expect((await User.findById(admin.id).lean())?.role).toBe("admin");
  });
});
