/**
 * Sign-in throttling at the shop's default settings, through the real login, logout and sign-up
 * actions and the real database: an office behind one address works normally, a guesser gets at
 * most 10 tries per account and address before waiting.
 */
import { randomInt, randomUUID } from "node:crypto";
import type { ActionFunctionArgs } from "@remix-run/node";
import mongoose from "mongoose";
import { afterEach, describe, expect, test, vi } from "vitest";
import { User } from "~/models/user.server";
import { action as loginAction } from "~/routes/login";
import { action as logoutAction } from "~/routes/logout";
import { action as signupAction } from "~/routes/signup";
import { getUser } from "~/services/guards.server";
import { addressKey, SignInThrottle, settingsFromEnv, THROTTLE_COLLECTION } from "~/services/rate-limit.server";
import { createUser, TEST_PASSWORD } from "../setup/factories";
import { getRequest, postRequest, settle, testContext } from "../setup/requests";

const SHOP = process.env.SHOP_URL!;
const BLOCK_MESSAGE = /^Too many failed sign-ins for this email from your network\. Please try again in 15 minutes\.$/;

/** A fresh address (from the documentation ranges), so that each test counts on its own. */
const newAddress = () => `203.0.${randomInt(0, 113)}.${randomInt(1, 255)}`;
const uniqueEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;

function from(clientIp: string, request: Request): ActionFunctionArgs {
  return { request, params: {}, context: testContext({ clientIp }) };
}

function login(ip: string, email: string, password: string) {
  return settle(loginAction(from(ip, postRequest("/login", { email, password }))));
}

async function reply(response: Response) {
  return (await response.json()) as { initialValue?: Record<string, unknown>; error?: Record<string, string[] | null> };
}

function cookiesFrom(response: Response) {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

afterEach(() => {
  vi.useRealTimers();
});

test("the defaults: 10 failures in a row per email and address, a 15-minute wait, 100 failures a day per address, 50 sign-ups an hour", () => {
  expect(settingsFromEnv()).toEqual({
    failsPerEmailAndIp: 10,
    blockSeconds: 900,
    failsPerIpPerDay: 100,
    signupsPerIpPerHour: 50,
  });
});

describe("an office behind one address", () => {
  test("30 colleagues each mistype their password once, then sign in and out within minutes: all get in", async () => {
    const office = newAddress();
    const staff = await Promise.all(Array.from({ length: 30 }, () => createUser()));
    for (const person of staff) {
      expect((await login(office, person.email, "mistyped-password")).status).toBe(401);
      const signedIn = await login(office, person.email, TEST_PASSWORD);
      expect(signedIn.status, person.email).toBe(302);
      const cookie = cookiesFrom(signedIn);
      expect((await getUser(getRequest("/", { cookie })))?.id).toBe(person.id);
      const signedOut = await settle(logoutAction(from(office, postRequest("/logout", {}, { cookie }))));
      expect(signedOut.status).toBe(302);
    }
  });

  test("one account that signs in correctly 20 times in a row is never refused", async () => {
    const office = newAddress();
    const user = await createUser();
    for (let time = 1; time <= 20; time++) {
      expect((await login(office, user.email, TEST_PASSWORD)).status, `sign-in ${time}`).toBe(302);
    }
  });

  test("a correct sign-in starts the count again: 9 typos, in, 9 typos, in", async () => {
    const office = newAddress();
    const user = await createUser();
    for (let round = 0; round < 2; round++) {
      for (let typo = 0; typo < 9; typo++)
        expect((await login(office, user.email, "mistyped-password")).status).toBe(401);
      expect((await login(office, user.email, TEST_PASSWORD)).status).toBe(302);
    }
  });

  test("50 colleagues sign up from one address in an hour; the 51st waits, keeps the email, and no account is made", async () => {
    const office = newAddress();
    const signup = (email: string) =>
      settle(
        signupAction(from(office, postRequest("/signup", { name: "New Starter", email, password: "secret-pass" }))),
      );
    for (let person = 1; person <= 50; person++) {
      expect((await signup(uniqueEmail("starter"))).status, `sign-up ${person}`).toBe(302);
    }
    const email = uniqueEmail("one-too-many");
    const refused = await signup(email);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(55 * 60);
    expect(retryAfter).toBeLessThanOrEqual(60 * 60);
    const body = await reply(refused);
    expect(body.error?.[""]?.[0]).toMatch(
      /^Too many sign-ups from your network\. Please try again in (5\d|60) minutes\.$/,
    );
    expect(body.initialValue).toMatchObject({ email, name: "New Starter" });
    expect(body.initialValue?.password).toBeUndefined();
    expect(await User.exists({ email })).toBeNull();
    // Another address is not affected.
    expect(
      (
        await settle(
          signupAction(
            from(newAddress(), postRequest("/signup", { name: "Elsewhere", email, password: "secret-pass" })),
          ),
        )
      ).status,
    ).toBe(302);
  });
});

describe("a guesser", () => {
  test("gets 10 wrong passwords for one email at one address, then waits 15 minutes; colleagues and the owner elsewhere are not affected", async () => {
    const office = newAddress();
    const victim = await createUser();
    const colleague = await createUser();
    const statuses: number[] = [];
    for (let guess = 1; guess <= 11; guess++) {
      const response = await login(office, victim.email, `guess-number-${guess}`);
      statuses.push(response.status);
      if (response.status === 429) {
        expect(Number(response.headers.get("Retry-After"))).toBeGreaterThan(14 * 60);
        expect(Number(response.headers.get("Retry-After"))).toBeLessThanOrEqual(15 * 60);
        const body = await reply(response);
        expect(body.error?.[""]?.[0]).toMatch(BLOCK_MESSAGE);
        expect(body.initialValue?.email).toBe(victim.email);
        expect(body.initialValue?.password).toBeUndefined();
        expect(response.headers.getSetCookie().join()).not.toContain("__session=");
      }
    }
    // The 10th failure starts the wait and says so; the 11th is not checked at all.
    expect(statuses).toEqual([...Array(9).fill(401), 429, 429]);

    // Even the right password now waits, at this address.
    expect((await login(office, victim.email, TEST_PASSWORD)).status).toBe(429);
    // A colleague at the same address signs in.
    expect((await login(office, colleague.email, TEST_PASSWORD)).status).toBe(302);
    // The owner, at their own address, signs in: nobody can lock them out from elsewhere.
    expect((await login(newAddress(), victim.email, TEST_PASSWORD)).status).toBe(302);
  });

  test("is answered the same whether or not the email has an account", async () => {
    const existing = await createUser();
    const answers = async (email: string) => {
      const office = newAddress();
      const seen: [number, string | null, string[] | null | undefined][] = [];
      for (let guess = 0; guess < 12; guess++) {
        const response = await login(office, email, "wrong-password");
        seen.push([response.status, response.headers.get("Retry-After") && "set", (await reply(response)).error?.[""]]);
      }
      return seen;
    };
    expect(await answers(uniqueEmail("nobody"))).toEqual(await answers(existing.email));
  });

  test("sending 25 guesses at once still gets no more than 10 checked", async () => {
    const office = newAddress();
    const victim = await createUser();
    const responses = await Promise.all(
      Array.from({ length: 25 }, (_, guess) => login(office, victim.email, `parallel-guess-${guess}`)),
    );
    const statuses = responses.map((response) => response.status);
    // At most ten are checked: up to nine wrong ones answered as such, the tenth starts the wait.
    // (Increments racing on the local database can read the same count, so under load the wait may
    // start a guess or two early; it never starts late.)
    const answeredWrong = statuses.filter((status) => status === 401).length;
    expect(answeredWrong).toBeGreaterThan(0);
    expect(answeredWrong).toBeLessThanOrEqual(9);
    expect(statuses.filter((status) => status !== 401).every((status) => status === 429)).toBe(true);
    for (const response of responses.filter((each) => each.status === 429)) {
      expect(Number(response.headers.get("Retry-After"))).toBeLessThanOrEqual(15 * 60);
    }
    expect((await login(office, victim.email, TEST_PASSWORD)).status).toBe(429);
  });

  test("after the wait the right password works again, and the count starts from zero", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date());
    const office = newAddress();
    const user = await createUser();
    for (let guess = 0; guess < 10; guess++) await login(office, user.email, "wrong-password");
    expect((await login(office, user.email, TEST_PASSWORD)).status).toBe(429);

    vi.setSystemTime(Date.now() + 14 * 60 * 1000);
    expect((await login(office, user.email, TEST_PASSWORD)).status).toBe(429);

    vi.setSystemTime(Date.now() + 61 * 1000);
    const response = await login(office, user.email, TEST_PASSWORD);
    expect(response.status).toBe(302);
    expect((await getUser(getRequest("/", { cookie: cookiesFrom(response) })))?.id).toBe(user.id);
    for (let typo = 0; typo < 9; typo++) expect((await login(office, user.email, "wrong-password")).status).toBe(401);
  });
});

describe("the throttle itself (settings passed in)", () => {
  const small = { failsPerEmailAndIp: 2, blockSeconds: 1, failsPerIpPerDay: 3, signupsPerIpPerHour: 1 };

  test("a short wait ends by the real clock", async () => {
    const throttle = new SignInThrottle(small);
    const ip = newAddress();
    const email = uniqueEmail("clock");
    const first = await throttle.beginLogin({ ip, email });
    expect(first.refused).toBeNull();
    if (!first.refused) expect(await first.failed()).toBeNull();
    const second = await throttle.beginLogin({ ip, email });
    if (second.refused) throw new Error("the second attempt should be checked");
    expect(await second.failed()).toMatchObject({ limit: "email-and-ip", retryAfterSeconds: 1 });
    expect((await throttle.beginLogin({ ip, email })).refused).toMatchObject({ limit: "email-and-ip" });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await throttle.beginLogin({ ip, email })).refused).toBeNull();
  });

  test("failures from one address across emails reach the daily ceiling; then every email waits there, and successes never count", async () => {
    const throttle = new SignInThrottle(small);
    const ip = newAddress();
    for (let success = 0; success < 5; success++) {
      const attempt = await throttle.beginLogin({ ip, email: uniqueEmail("ok") });
      if (attempt.refused) throw new Error("successes must not count");
      await attempt.succeeded();
    }
    const results = [];
    for (let spray = 0; spray < 3; spray++) {
      const attempt = await throttle.beginLogin({ ip, email: uniqueEmail("spray") });
      if (attempt.refused) throw new Error("the first three failures are checked");
      results.push(await attempt.failed());
    }
    expect(results.slice(0, 2)).toEqual([null, null]);
    expect(results[2]).toMatchObject({
      limit: "ip-per-day",
      message: expect.stringMatching(
        /^Too many failed sign-ins from your network today\. Please try again in 2\d hours\.$/,
      ),
    });
    expect((await throttle.beginLogin({ ip, email: uniqueEmail("next") })).refused).toMatchObject({
      limit: "ip-per-day",
    });
    expect((await throttle.beginLogin({ ip: newAddress(), email: uniqueEmail("elsewhere") })).refused).toBeNull();
  });

  test("keeps no email addresses, and its counters expire by themselves (TTL index)", async () => {
    const email = uniqueEmail("private");
    const attempt = await new SignInThrottle(small).beginLogin({ ip: newAddress(), email });
    if (!attempt.refused) await attempt.failed();
    const collection = mongoose.connection.collection(THROTTLE_COLLECTION);
    expect(await collection.countDocuments({ key: { $regex: email.split("@")[0] } })).toBe(0);
    const indexes = await collection.indexes();
    expect(indexes.find((index) => index.key.expire === -1)?.expireAfterSeconds).toBe(0);
    expect(indexes.find((index) => index.key.key === 1)?.unique).toBe(true);
  });

  test.each([
    ["203.0.113.7", "203.0.113.7"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"],
    ["2001:db8:1:2:bbbb:cccc:dddd:eeee", "2001:db8:1:2::/64"],
    ["::1", "::/64"],
    ["", "unknown"],
  ])("counts %j as the address %j", (ip, expected) => {
    expect(addressKey(ip)).toBe(expected);
  });
});

describe("over HTTP, without TRUST_PROXY", () => {
  test("X-Forwarded-For is ignored: a guesser cannot make each guess look like another address", async () => {
    const victim = await createUser();
    const statuses: number[] = [];
    for (let guess = 1; guess <= 11; guess++) {
      const response = await fetch(`${SHOP}/login`, {
        method: "POST",
        body: new URLSearchParams({ email: victim.email, password: guess === 11 ? TEST_PASSWORD : `guess-${guess}` }),
        headers: { Origin: SHOP, "X-Forwarded-For": `198.51.100.${guess}` },
        redirect: "manual",
      });
      statuses.push(response.status);
      if (guess === 11) {
        expect(Number(response.headers.get("Retry-After"))).toBeGreaterThan(14 * 60);
        const page = await response.text();
        expect(page).toContain(
          "Too many failed sign-ins for this email from your network. Please try again in 15 minutes.",
        );
        expect(page).toContain(`value="${victim.email}"`);
      } else {
        await response.body?.cancel();
      }
    }
    expect(statuses).toEqual([...Array(9).fill(401), 429, 429]);
  });
});
