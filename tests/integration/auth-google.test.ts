/**
 * Google sign-in end to end over HTTP: the running shop (remix-auth-google, unchanged but for its
 * endpoint URLs) against the local OAuth2 server that the harness started (tests/setup/oauth-server.ts).
 */
import { randomUUID } from "node:crypto";
import mongoose from "mongoose";
import { describe, expect, test } from "vitest";
import { Session } from "~/models/session.server";
import { User } from "~/models/user.server";
import { migrateDb } from "~/services/migrate.server";
import { createUser, sessionCookieValue } from "../setup/factories";
import { linkIn, waitForMail } from "../setup/mail";
import { encodeMockUser, MOCK_USER_PARAM, type MockGoogleUser } from "../setup/oauth-server";

const SHOP = process.env.SHOP_URL!;
const AUTHORIZE = process.env.GOOGLE_AUTHORIZATION_URL!;

/** Just enough of a browser's cookie jar: name=value pairs, removed when expired. */
class CookieJar {
  private cookies = new Map<string, string>();
  take(response: Response) {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const name = pair.slice(0, pair.indexOf("="));
      const expired = /Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(cookie) || pair.endsWith("=");
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(name.length + 1));
    }
  }
  has(name: string) {
    return this.cookies.has(name);
  }
  get header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

function googleUser(overrides: MockGoogleUser = {}): MockGoogleUser {
  const id = randomUUID().slice(0, 8);
  return {
    sub: `google-${id}`,
    email: `g-${id}@example.com`,
    email_verified: true,
    name: `Greta Google ${id}`,
    picture: `https://lh3.googleusercontent.com/a/${id}`,
    ...overrides,
  };
}

/** The login form, posted as a browser without JavaScript does, with the jar's cookies. */
async function signInWithPassword(jar: CookieJar, email: string, password: string) {
  const response = await fetch(`${SHOP}/login`, {
    method: "POST",
    body: new URLSearchParams({ email, password }),
    headers: { Origin: SHOP, Cookie: jar.header },
    redirect: "manual",
  });
  await response.body?.cancel();
  jar.take(response);
  return response;
}

/** Presses the Google button, "signs in at Google" as `user`, and follows Google back to the shop. */
async function signInWithGoogle(user: MockGoogleUser, { redirectTo = "/", jar = new CookieJar() } = {}) {
  const start = await fetch(`${SHOP}/auth/google`, {
    method: "POST",
    body: new URLSearchParams({ redirectTo }),
    headers: { Origin: SHOP, Cookie: jar.header },
    redirect: "manual",
  });
  expect(start.status).toBe(302);
  jar.take(start);
  const authorize = new URL(start.headers.get("Location")!);
  authorize.searchParams.set(MOCK_USER_PARAM, encodeMockUser(user));
  const atGoogle = await fetch(authorize, { redirect: "manual" });
  expect(atGoogle.status).toBe(302);
  const callback = atGoogle.headers.get("Location")!;
  const back = await fetch(callback, { headers: { Cookie: jar.header }, redirect: "manual" });
  jar.take(back);
  return { start, authorize, callback, back, jar };
}

describe("Google sign-in through the local OAuth2 server", () => {
  test("the button starts a code flow at the configured endpoint with state, scopes and our callback", async () => {
    const { authorize, start } = await signInWithGoogle(googleUser());
    expect(authorize.href.startsWith(AUTHORIZE)).toBe(true);
    expect(authorize.searchParams.get("response_type")).toBe("code");
    expect(authorize.searchParams.get("client_id")).toBe(process.env.GOOGLE_CLIENT_ID);
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${SHOP}/auth/google/callback`);
    expect(authorize.searchParams.get("scope")).toContain("openid");
    expect(authorize.searchParams.get("state")).toMatch(/.{16,}/);
    const cookies = start.headers.getSetCookie();
    for (const name of ["__google_oauth", "__google_redirect"]) {
      const cookie = cookies.find((value) => value.startsWith(`${name}=`));
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      expect(cookie).toMatch(/Path=\/auth\/google/);
      expect(cookie).toMatch(/Max-Age=600/);
    }
  });

  test("a new Google user gets an account with Google's name and picture and lands where they started", async () => {
    const user = googleUser();
    const { back, jar } = await signInWithGoogle(user, { redirectTo: "/dashboard" });
    expect(back.status).toBe(302);
    expect(back.headers.get("Location")).toBe("/dashboard");
    expect(jar.has("__session")).toBe(true);
    // The short-lived OAuth cookies are cleared.
    expect(jar.has("__google_oauth")).toBe(false);
    expect(jar.has("__google_redirect")).toBe(false);

    const stored = await User.findOne({ email: user.email }).select("+passwordHash").lean();
    expect(stored).toMatchObject({ name: user.name, googleId: user.sub, photoUrl: user.picture, role: "customer" });
    expect(stored?.passwordHash).toBeUndefined();

    const dashboard = await fetch(`${SHOP}/dashboard`, { headers: { Cookie: jar.header }, redirect: "manual" });
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toContain(user.name);
  });

  test("an account made with Google counts as verified: no banner asks to confirm the address", async () => {
    const user = googleUser();
    const { jar } = await signInWithGoogle(user, { redirectTo: "/dashboard" });
    expect((await User.findOne({ email: user.email }).lean())?.emailVerifiedAt).toBeInstanceOf(Date);
    const dashboard = await fetch(`${SHOP}/dashboard`, { headers: { Cookie: jar.header }, redirect: "manual" });
    const html = await dashboard.text();
    expect(html).toContain(user.name);
    expect(html).not.toContain("Please confirm your email address");
  });

  test("an existing password account is linked only after its owner signs in with the password once", async () => {
    const existing = await createUser({ name: "Pat Password" });
    await User.updateOne({ _id: existing.id }, { $set: { photoUrl: "https://images.example.com/pat.png" } });
    const elsewhere = await sessionCookieValue(existing.id);
    const user = googleUser({ email: existing.email.toUpperCase() });

    // Google's word alone links nothing and signs nobody in.
    const first = await signInWithGoogle(user, { redirectTo: "/dashboard" });
    const location = new URL(first.back.headers.get("Location")!, SHOP);
    expect(location.pathname).toBe("/login");
    expect(location.searchParams.get("googleError")).toBe("link-needed");
    expect(first.jar.has("__session")).toBe(false);
    expect(first.jar.has("__google_link")).toBe(true);
    expect((await User.findById(existing.id).lean())?.googleId).toBeUndefined();
    const page = await fetch(location, { headers: { Cookie: first.jar.header } });
    expect(await page.text()).toContain("Log in with its password once to link your Google account");

    // The password proves the account is theirs: now it is linked, and every other session ends.
    const login = await signInWithPassword(first.jar, existing.email, existing.password);
    expect(login.status).toBe(302);
    expect(first.jar.has("__google_link")).toBe(false);
    expect(await User.countDocuments({ email: existing.email })).toBe(1);
    expect(await User.findById(existing.id).lean()).toMatchObject({
      name: "Pat Password",
      googleId: user.sub,
      photoUrl: "https://images.example.com/pat.png",
    });
    expect(await Session.exists({ _id: elsewhere.sessionId })).toBeNull();
    expect(await Session.countDocuments({ userId: existing.id })).toBe(1);

    // From now on Google signs in directly: the same user, a new session.
    const second = await signInWithGoogle(user);
    expect(second.back.headers.get("Location")).toBe("/");
    expect(second.jar.has("__session")).toBe(true);
    expect(await User.countDocuments({ email: existing.email })).toBe(1);
  });

  test("a waiting Google link is not given to another account that signs in with its password", async () => {
    const owner = await createUser();
    const someoneElse = await createUser();
    const { jar } = await signInWithGoogle(googleUser({ email: owner.email }));
    expect(jar.has("__google_link")).toBe(true);
    expect((await signInWithPassword(jar, someoneElse.email, someoneElse.password)).status).toBe(302);
    expect((await User.findById(someoneElse.id).lean())?.googleId).toBeUndefined();
    expect((await User.findById(owner.id).lean())?.googleId).toBeUndefined();
  });

  test("an email that must wait for password sign-ins at this address still signs in with its linked Google account", async () => {
    const existing = await createUser({ name: "Wanda Waiting" });
    const google = googleUser({ email: existing.email });
    await User.updateOne({ _id: existing.id }, { $set: { googleId: google.sub } });
    const tryPassword = async (password: string) => {
      const response = await fetch(`${SHOP}/login`, {
        method: "POST",
        body: new URLSearchParams({ email: existing.email, password }),
        headers: { Origin: SHOP },
        redirect: "manual",
      });
      await response.body?.cancel();
      return response.status;
    };
    for (let guess = 1; guess <= 10; guess++) await tryPassword(`wrong-guess-${guess}`);
    expect(await tryPassword(existing.password)).toBe(429);

    const { back, jar } = await signInWithGoogle(google, { redirectTo: "/dashboard" });
    expect(back.headers.get("Location")).toBe("/dashboard");
    const dashboard = await fetch(`${SHOP}/dashboard`, { headers: { Cookie: jar.header }, redirect: "manual" });
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toContain("Wanda Waiting");
  });

  test("Google never takes over an unverified account: no link, no session, the password owner is told what to do", async () => {
    // A stranger signed up first with the victim's address and a password of their own.
    const squatted = await createUser({ name: "Sly Stranger", verified: false });
    const victim = googleUser({ email: squatted.email });
    const { back, jar } = await signInWithGoogle(victim, { redirectTo: "/dashboard" });
    const location = new URL(back.headers.get("Location")!, SHOP);
    expect(location.pathname).toBe("/login");
    expect(location.searchParams.get("googleError")).toBe("unverified-account");
    expect(jar.has("__session")).toBe(false);
    expect((await User.findById(squatted.id).lean())?.googleId).toBeUndefined();
    const page = await fetch(location, { headers: { Cookie: jar.header } });
    expect(await page.text()).toContain("its address is not verified yet");
  });

  test("an account without a photo takes Google's picture when it is linked", async () => {
    const existing = await createUser();
    const user = googleUser({ email: existing.email });
    const { jar } = await signInWithGoogle(user);
    await signInWithPassword(jar, existing.email, existing.password);
    expect((await User.findById(existing.id).lean())?.photoUrl).toBe(user.picture);
  });

  test("pre-hijack: a stranger who signed up first with the victim's address never shares the victim's account", async () => {
    // 1. The attacker signs up with the victim's address and a password of his own.
    const victimEmail = `victim-${randomUUID().slice(0, 8)}@example.com`;
    const attacker = new CookieJar();
    const signup = await fetch(`${SHOP}/signup`, {
      method: "POST",
      body: new URLSearchParams({ name: "Vic Tim", email: victimEmail, password: "attacker-own-77" }),
      headers: { Origin: SHOP },
      redirect: "manual",
    });
    expect(signup.status).toBe(302);
    attacker.take(signup);
    const account = await User.findOne({ email: victimEmail }).lean();

    // 2. The welcome mail reaches the victim; the mail scanner (or the victim) opens its link.
    const [welcome] = await waitForMail(victimEmail, { subject: /^Welcome to PartsWorks/ });
    const link = linkIn(welcome, `${SHOP}/verify-email?token=`);
    for (let i = 0; i < 3; i++) expect((await fetch(link)).status).toBe(200);
    expect((await User.findById(account!._id).lean())?.emailVerifiedAt).toBeUndefined();

    // 3. The victim signs in with Google: not linked, not signed in, told what to do.
    const victim = googleUser({ email: victimEmail });
    const refused = await signInWithGoogle(victim);
    expect(new URL(refused.back.headers.get("Location")!, SHOP).searchParams.get("googleError")).toBe(
      "unverified-account",
    );
    expect(refused.jar.has("__session")).toBe(false);

    // 4. Even once the address is confirmed (the button pressed), Google alone links nothing.
    const token = new URL(link).searchParams.get("token")!;
    const confirmed = await fetch(`${SHOP}/verify-email`, {
      method: "POST",
      body: new URLSearchParams({ token }),
      headers: { Origin: SHOP },
      redirect: "manual",
    });
    expect(confirmed.status).toBe(302);
    const again = await signInWithGoogle(victim);
    expect(new URL(again.back.headers.get("Location")!, SHOP).searchParams.get("googleError")).toBe("link-needed");
    expect(again.jar.has("__session")).toBe(false);
    expect((await User.findById(account!._id).lean())?.googleId).toBeUndefined();

    // 5. The victim takes the account back by resetting the password (the attacker's sessions end),
    //    then signs in with it once, which links Google.
    const forgot = await fetch(`${SHOP}/forgot-password`, {
      method: "POST",
      body: new URLSearchParams({ email: victimEmail }),
      headers: { Origin: SHOP },
      redirect: "manual",
    });
    expect(forgot.status).toBe(302);
    const [resetMail] = await waitForMail(victimEmail, { subject: "Reset your PartsWorks password" });
    const resetToken = new URL(linkIn(resetMail, `${SHOP}/reset-password?token=`)).searchParams.get("token")!;
    const reset = await fetch(`${SHOP}/reset-password`, {
      method: "POST",
      body: new URLSearchParams({ token: resetToken, password: "victim-owns-this-9" }),
      headers: { Origin: SHOP },
      redirect: "manual",
    });
    expect(reset.status).toBe(302);
    const linked = await signInWithPassword(again.jar, victimEmail, "victim-owns-this-9");
    expect(linked.status).toBe(302);
    expect((await User.findById(account!._id).lean())?.googleId).toBe(victim.sub);

    // The attacker's session and password open nothing any more.
    const attackerPage = await fetch(`${SHOP}/dashboard`, { headers: { Cookie: attacker.header }, redirect: "manual" });
    expect(attackerPage.status).toBe(302);
    expect((await signInWithPassword(new CookieJar(), victimEmail, "attacker-own-77")).status).toBe(401);
    // And Google signs the victim in directly.
    const google = await signInWithGoogle(victim);
    expect(google.jar.has("__session")).toBe(true);
  });

  test.each([
    ["cancelled", { error: "access_denied" }, "Google sign-in was cancelled."],
    ["unverified", { email_verified: false }, "email address is not verified"],
    ["failed", { tokenError: true }, "Google sign-in did not work."],
  ] as const)(
    "%s: back to the login page with a clear message in red, no account, no session",
    async (reason, override, text) => {
      const user = googleUser(override);
      const { back, jar } = await signInWithGoogle(user, { redirectTo: "/dashboard" });
      expect(back.status).toBe(302);
      const location = new URL(back.headers.get("Location")!, SHOP);
      expect(location.pathname).toBe("/login");
      expect(location.searchParams.get("googleError")).toBe(reason);
      expect(location.searchParams.get("redirectTo")).toBe("/dashboard");
      expect(jar.has("__session")).toBe(false);
      expect(await User.exists({ email: user.email })).toBeNull();

      const page = await fetch(location, { headers: { Cookie: jar.header } });
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toMatch(
        new RegExp(`role="alert"[^>]*class="[^"]*text-red-[^>]*>[^<]*${text.replace(/\./g, "\\.")}`),
      );
    },
  );

  test("a forged callback (no state cookie) goes back to login with a message, never an error page", async () => {
    const response = await fetch(`${SHOP}/auth/google/callback?code=forged&state=forged`, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login?googleError=failed");
  });

  test.each([
    "//evil.example/phish",
    "/\t/evil.example",
    "/%09/evil.example",
    "/%5Cevil.example",
    "https://evil.example/",
  ])("a redirectTo that leaves the site (%j) is replaced by the customer's own start page", async (redirectTo) => {
    const { back } = await signInWithGoogle(googleUser(), { redirectTo });
    expect(back.headers.get("Location")).toBe("/dashboard/orders");
  });

  test("a GET to /auth/google does not start sign-in", async () => {
    const response = await fetch(`${SHOP}/auth/google`, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login");
  });

  test("the login and sign-up pages offer Google because it is configured", async () => {
    expect(await (await fetch(`${SHOP}/login`)).text()).toContain("Continue with Google");
    expect(await (await fetch(`${SHOP}/signup`)).text()).toContain("Sign up with Google");
  });
});

describe("the migration of accounts linked to Google before verification existed", () => {
  test("marks them verified, leaves other accounts as they are, and runs once", async () => {
    // A database of its own on the same server, holding users of the earlier shape.
    const db = mongoose.connection.useDb(`migration-google-${Date.now()}`).db!;
    const verifiedAt = new Date("2026-01-05");
    const users = db.collection("users");
    const { insertedIds } = await users.insertMany([
      { email: "linked@example.com", name: "Linked Before", role: "customer", googleId: "google-old-1" },
      { email: "password@example.com", name: "Password Only", role: "customer" },
      {
        email: "verified@example.com",
        name: "Verified Already",
        role: "customer",
        googleId: "google-old-2",
        emailVerifiedAt: verifiedAt,
      },
    ]);

    // A new database gets every migration; this one is among them.
    const applied = await migrateDb(db);
    expect(applied).toContain("20261123171500-google-accounts-verified.js");
    const [linked, password, verified] = await Promise.all(
      Object.values(insertedIds).map((_id) => users.findOne({ _id })),
    );
    expect(linked?.emailVerifiedAt).toBeInstanceOf(Date);
    expect(password).not.toHaveProperty("emailVerifiedAt");
    expect(verified?.emailVerifiedAt).toEqual(verifiedAt);

    expect(await migrateDb(db)).toEqual([]);
    await db.dropDatabase();
  });
});
