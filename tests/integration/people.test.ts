/**
 * People and reviews through the real route actions and loaders: removing an admin (never the
 * last one, even with two removals at once), signing a user out everywhere, a user's own sessions,
 * and moderating the home page's reviews (one visible review per customer, hidden ones never shown).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import mongoose from "mongoose";
import sharp from "sharp";
import { describe, expect, test } from "vitest";
import { googlePicture } from "~/domain/avatar";
import * as avatarMigration from "../../scripts/migrations/20261123151000-avatar-addresses.js";
import { Audit } from "~/models/audit.server";
import { Review } from "~/models/review.server";
import { Session, sessionHandle } from "~/models/session.server";
import { User } from "~/models/user.server";
import { loader as avatarLoader } from "~/routes/avatars.$name";
import { action as profileAction } from "~/routes/dashboard._index/route";
import { action as usersAction } from "~/routes/dashboard.allUsers";
import { loader as confirmLoader } from "~/routes/dashboard.allUsers_.$id.$intent";
import { action as reviewAction } from "~/routes/dashboard.review";
import { action as reviewsAction, loader as reviewsLoader } from "~/routes/dashboard.reviews";
import { action as sessionsAction, loader as sessionsLoader } from "~/routes/dashboard.sessions";
import { createUser, sessionCookieHeader, sessionCookieValue } from "../setup/factories";
import { actionArgs, getRequest, loaderArgs, postRequest, settle } from "../setup/requests";
import { signedIn, toastOf } from "./ordering.helpers";

const SHOP = process.env.SHOP_URL!;

type Action =
  typeof profileAction | typeof usersAction | typeof sessionsAction | typeof reviewsAction | typeof reviewAction;
const post = (fn: Action, path: string, fields: Record<string, string>, cookie?: string) =>
  settle(fn(actionArgs(postRequest(path, fields, { cookie }))));

/** Runs `fn` with the given users as the shop's only admins (the others are put back afterwards). */
async function withOnlyAdmins(ids: string[], fn: () => Promise<void>) {
  const others = (
    await User.find({ role: "admin", _id: { $nin: ids } })
      .select({ _id: 1 })
      .lean()
  ).map((doc) => doc._id);
  await User.updateMany({ _id: { $in: others } }, { $set: { role: "customer" } });
  try {
    await fn();
  } finally {
    await User.updateMany({ _id: { $in: others } }, { $set: { role: "admin" } });
  }
}

const roleOf = async (id: string) => (await User.findById(id).lean())?.role;

describe("Remove admin", () => {
  test("demotes another admin, audited with before and after", async () => {
    const { user: admin, cookie } = await signedIn("admin");
    const other = await createUser({ role: "admin" });
    const response = await post(usersAction, "/dashboard/allUsers", { intent: "demote", userId: other.id }, cookie);
    expect(response.status).toBe(302);
    expect((await toastOf(response))?.message).toBe(`${other.name} is no longer an admin.`);
    expect(await roleOf(other.id)).toBe("customer");
    const entry = await Audit.findOne({ targetId: other.id, action: "user.demote" }).lean();
    expect(entry).toMatchObject({ actorEmail: admin.email, before: { role: "admin" }, after: { role: "customer" } });
  });

  test("refuses the last admin, themselves included, and changes nothing", async () => {
    const { user: admin, cookie } = await signedIn("admin");
    await withOnlyAdmins([admin.id], async () => {
      const response = await post(usersAction, "/dashboard/allUsers", { intent: "demote", userId: admin.id }, cookie);
      expect(response.status).toBe(409);
      expect(JSON.stringify(await response.json())).toContain("The shop needs at least one admin");
      expect(await roleOf(admin.id)).toBe("admin");
      expect(await Audit.countDocuments({ targetId: admin.id, action: "user.demote" })).toBe(0);
    });
  });

  test("two admins demoting each other at once never leave the shop without an admin", async () => {
    for (let round = 0; round < 5; round++) {
      const a = await signedIn("admin");
      const b = await signedIn("admin");
      await withOnlyAdmins([a.user.id, b.user.id], async () => {
        const responses = await Promise.all([
          post(usersAction, "/dashboard/allUsers", { intent: "demote", userId: b.user.id }, a.cookie),
          post(usersAction, "/dashboard/allUsers", { intent: "demote", userId: a.user.id }, b.cookie),
        ]);
        expect(await User.countDocuments({ role: "admin" })).toBeGreaterThanOrEqual(1);
        const demoted = responses.filter((response) => response.status === 302).length;
        expect(demoted).toBeLessThanOrEqual(1);
        expect(await User.countDocuments({ role: "admin" })).toBe(2 - demoted);
      });
    }
  });

  test("an admin may step down while another remains, and then loses the admin screens", async () => {
    const { user: admin, cookie } = await signedIn("admin");
    await createUser({ role: "admin" });
    const response = await post(usersAction, "/dashboard/allUsers", { intent: "demote", userId: admin.id }, cookie);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard");
    const again = await settle(reviewsLoader(loaderArgs(getRequest("/dashboard/reviews", { cookie }))));
    expect(again.headers.get("Location")).toBe("/login");
  });

  test("customers cannot demote or sign anyone out", async () => {
    const { cookie } = await signedIn();
    const admin = await createUser({ role: "admin" });
    await sessionCookieHeader(admin.id);
    for (const intent of ["demote", "sign-out"]) {
      const response = await post(usersAction, "/dashboard/allUsers", { intent, userId: admin.id }, cookie);
      expect(response.status).toBe(403);
    }
    expect(await roleOf(admin.id)).toBe("admin");
    expect(await Session.countDocuments({ userId: admin.id })).toBe(1);
  });

  test("a bad intent or user is a 400 with nothing changed", async () => {
    const { cookie } = await signedIn("admin");
    const other = await createUser({ role: "admin" });
    const attempts: Record<string, string>[] = [
      { intent: "delete-everything", userId: other.id },
      { intent: "demote", userId: "not-an-id" },
      { intent: "demote" },
    ];
    for (const fields of attempts) {
      const response = await post(usersAction, "/dashboard/allUsers", fields, cookie);
      expect(response.status).toBe(400);
    }
    expect(await roleOf(other.id)).toBe("admin");
  });

  test("the no-JavaScript confirmation page names the user and 404s for a customer's demotion", async () => {
    const { cookie } = await signedIn("admin");
    const other = await createUser({ role: "admin", name: "Olga Other" });
    const customer = await createUser();
    const page = await settle(
      confirmLoader(
        loaderArgs(getRequest(`/dashboard/allUsers/${other.id}/demote`, { cookie }), {
          id: other.id,
          intent: "demote",
        }),
      ),
    );
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Olga Other");
    const missing = await settle(
      confirmLoader(
        loaderArgs(getRequest(`/dashboard/allUsers/${customer.id}/demote`, { cookie }), {
          id: customer.id,
          intent: "demote",
        }),
      ),
    );
    expect(missing.status).toBe(404);
  });
});

describe("Sign out everywhere", () => {
  test("ends every session of the user: their other cookie no longer opens the dashboard", async () => {
    const { user: admin, cookie } = await signedIn("admin");
    const customer = await createUser();
    const phone = await sessionCookieHeader(customer.id);
    const laptop = await sessionCookieHeader(customer.id);
    const before = await fetch(`${SHOP}/dashboard/sessions`, { headers: { Cookie: phone }, redirect: "manual" });
    expect(before.status).toBe(200);
    const response = await post(
      usersAction,
      "/dashboard/allUsers",
      { intent: "sign-out", userId: customer.id },
      cookie,
    );
    expect(response.status).toBe(302);
    expect(await Session.countDocuments({ userId: customer.id })).toBe(0);
    for (const other of [phone, laptop]) {
      const after = await fetch(`${SHOP}/dashboard/sessions`, { headers: { Cookie: other }, redirect: "manual" });
      expect(after.status).toBe(302);
      expect(after.headers.get("Location")).toMatch(/^\/login/);
    }
    const entry = await Audit.findOne({ targetId: customer.id, action: "user.sign-out-everywhere" }).lean();
    expect(entry).toMatchObject({ actorEmail: admin.email, before: { sessions: 2 }, after: { sessions: 0 } });
  });
});

describe("Your sessions", () => {
  test("lists the user's own sessions with device and address, this one marked", async () => {
    const user = await createUser();
    const signIn = await settle(
      (await import("~/routes/login")).action({
        request: postRequest(
          "/login",
          { email: user.email, password: user.password },
          { headers: { "User-Agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Gecko/20100101 Firefox/128.0" } },
        ),
        params: {},
        context: (await import("../setup/requests")).testContext({ clientIp: "203.0.113.9" }),
      }),
    );
    expect(signIn.status).toBe(302);
    const cookie = signIn.headers
      .getSetCookie()
      .find((header) => header.startsWith("__session="))!
      .split(";")[0];
    await sessionCookieHeader(user.id);
    const stranger = await createUser();
    await sessionCookieHeader(stranger.id);
    const data = await (await settle(sessionsLoader(loaderArgs(getRequest("/dashboard/sessions", { cookie }))))).json();
    expect(data.sessions).toHaveLength(2);
    const current = data.sessions.find((session: { current: boolean }) => session.current);
    expect(current).toMatchObject({ device: "Firefox on Windows", ip: "203.0.113.9" });
    // The secret session id never reaches the page.
    const ids = (await Session.find({ userId: user.id }).lean()).map((doc) => doc._id);
    for (const id of ids) expect(JSON.stringify(data)).not.toContain(id);
  });

  test("ends one other session, and then all the others, keeping this one", async () => {
    const user = await createUser();
    const { sessionId: mine, value } = await sessionCookieValue(user.id);
    const cookie = `__session=${value}`;
    const { sessionId: second } = await sessionCookieValue(user.id);
    await sessionCookieValue(user.id);
    await sessionCookieValue(user.id);
    const one = await post(
      sessionsAction,
      "/dashboard/sessions",
      { intent: "end", session: sessionHandle(second) },
      cookie,
    );
    expect(one.status).toBe(302);
    expect(await Session.exists({ _id: second })).toBeNull();
    expect(await Session.countDocuments({ userId: user.id })).toBe(3);
    const rest = await post(sessionsAction, "/dashboard/sessions", { intent: "end-others" }, cookie);
    expect(rest.status).toBe(302);
    expect((await toastOf(rest))?.message).toBe("2 other sessions have been signed out.");
    expect((await Session.find({ userId: user.id }).lean()).map((doc) => doc._id)).toEqual([mine]);
  });

  test("a user cannot end another user's session: 404 and nothing deleted", async () => {
    const { cookie } = await signedIn();
    const victim = await createUser();
    const { sessionId } = await sessionCookieValue(victim.id);
    for (const session of [sessionHandle(sessionId), sessionId.slice(0, 22)]) {
      const response = await post(sessionsAction, "/dashboard/sessions", { intent: "end", session }, cookie);
      expect(response.status).toBe(404);
    }
    const bad = await post(sessionsAction, "/dashboard/sessions", { intent: "end", "session.$ne": "" }, cookie);
    expect(bad.status).toBe(400);
    expect(await Session.exists({ _id: sessionId })).not.toBeNull();
  });
});

async function postReview(cookie: string, description: string) {
  const response = await post(reviewAction, "/dashboard/review", { rating: "4", description }, cookie);
  expect(response.status).toBe(302);
}

async function homeHtml() {
  return (await fetch(`${SHOP}/`)).text();
}

describe("reviews", () => {
  test("a customer has one visible review: a new one replaces the old", async () => {
    const { user, cookie } = await signedIn();
    const first = `First review ${crypto.randomUUID()}`;
    const second = `Second review ${crypto.randomUUID()}`;
    await postReview(cookie, first);
    await postReview(cookie, second);
    const mine = await Review.find({ userId: user.id }).sort({ createdAt: 1, _id: 1 }).lean();
    expect(mine.map((review) => [review.description, review.hidden])).toEqual([
      [first, true],
      [second, false],
    ]);
    const html = await homeHtml();
    expect(html).toContain(second);
    expect(html).not.toContain(first);
  });

  test("two posts at the same moment still leave one visible review", async () => {
    const { user, cookie } = await signedIn();
    await Promise.all(Array.from({ length: 4 }, (_, index) => postReview(cookie, `Concurrent review ${index}`)));
    expect(await Review.countDocuments({ userId: user.id })).toBe(4);
    expect(await Review.countDocuments({ userId: user.id, hidden: false })).toBe(1);
  });

  test("an admin hides a review (audited): it leaves the home page; shown again it returns", async () => {
    const { cookie: customer } = await signedIn();
    const text = `Hide me ${crypto.randomUUID()}`;
    await postReview(customer, text);
    const review = (await Review.findOne({ description: text }).lean())!;
    const { user: admin, cookie } = await signedIn("admin");
    expect(await homeHtml()).toContain(text);

    const hide = await post(
      reviewsAction,
      "/dashboard/reviews",
      { intent: "hide", reviewId: String(review._id) },
      cookie,
    );
    expect(hide.status).toBe(302);
    expect(await homeHtml()).not.toContain(text);
    const entry = await Audit.findOne({ targetId: String(review._id), action: "review.hide" }).lean();
    expect(entry).toMatchObject({
      actorEmail: admin.email,
      before: { status: "visible" },
      after: { status: "hidden" },
    });

    const show = await post(
      reviewsAction,
      "/dashboard/reviews",
      { intent: "unhide", reviewId: String(review._id) },
      cookie,
    );
    expect(show.status).toBe(302);
    expect(await homeHtml()).toContain(text);
    const shown = await Audit.findOne({ targetId: String(review._id), action: "review.unhide" }).lean();
    expect(shown).toMatchObject({
      actorEmail: admin.email,
      before: { status: "hidden" },
      after: { status: "visible" },
    });
  });

  test("a replaced review cannot be shown beside its newer one", async () => {
    const { user, cookie: customer } = await signedIn();
    await postReview(customer, "Old words");
    await postReview(customer, "New words");
    const old = (await Review.findOne({ userId: user.id, description: "Old words" }).lean())!;
    const { cookie } = await signedIn("admin");
    const response = await post(
      reviewsAction,
      "/dashboard/reviews",
      { intent: "unhide", reviewId: String(old._id) },
      cookie,
    );
    expect(response.status).toBe(409);
    expect(await Review.countDocuments({ userId: user.id, hidden: false })).toBe(1);
  });

  test("an admin deletes a review (audited); customers cannot moderate", async () => {
    const { cookie: customerCookie } = await signedIn();
    await postReview(customerCookie, "Delete me please");
    const review = (await Review.findOne({ description: "Delete me please" }).sort({ createdAt: -1 }).lean())!;
    const id = String(review._id);
    const { cookie: other } = await signedIn();
    const refused = await post(reviewsAction, "/dashboard/reviews", { intent: "delete", reviewId: id }, other);
    expect(refused.status).toBe(302);
    expect(refused.headers.get("Location")).toBe("/login");
    expect(await Review.exists({ _id: id })).not.toBeNull();

    const { cookie } = await signedIn("admin");
    const response = await post(reviewsAction, "/dashboard/reviews", { intent: "delete", reviewId: id }, cookie);
    expect(response.status).toBe(302);
    expect(await Review.exists({ _id: id })).toBeNull();
    expect(await Audit.countDocuments({ targetId: id, action: "review.delete" })).toBe(1);
    const missing = await post(reviewsAction, "/dashboard/reviews", { intent: "delete", reviewId: id }, cookie);
    expect(missing.status).toBe(404);
  });
});

describe("avatars: the Google picture or our default, never a typed address", () => {
  test("only https pictures on googleusercontent.com pass", () => {
    expect(googlePicture("https://lh3.googleusercontent.com/a/abc=s96-c")).toBe(
      "https://lh3.googleusercontent.com/a/abc=s96-c",
    );
    for (const bad of [
      "http://lh3.googleusercontent.com/a/abc",
      "https://evilgoogleusercontent.com/a.png",
      "https://lh3.googleusercontent.com.evil.example/a.png",
      "https://user:pw@lh3.googleusercontent.com/a.png",
      "https://tracker.example/pixel.png",
      "javascript:alert(1)",
      "/images/x.png",
    ]) {
      expect(googlePicture(bad), bad).toBeNull();
    }
  });

  test("My Profile takes no picture address, and a stored one is never shown", async () => {
    const { user, cookie } = await signedIn();
    const saved = await post(
      profileAction,
      "/dashboard?index",
      { intent: "profile", name: "Pia Pixel", photoUrl: "https://tracker.example/pixel.png" },
      cookie,
    );
    expect(saved.status).toBe(302);
    expect((await User.findById(user.id).lean())?.photoUrl).toBeUndefined();

    // An address left from before (or written by other means) is ignored on every page.
    await User.updateOne({ _id: user.id }, { $set: { photoUrl: "https://tracker.example/pixel.png" } });
    const text = `Pixel review ${crypto.randomUUID()}`;
    await postReview(cookie, text);
    expect((await Review.findOne({ description: text }).lean())?.img).toBe("/images/default-avatar.svg");
    const dashboard = await (await fetch(`${SHOP}/dashboard`, { headers: { Cookie: cookie } })).text();
    expect(dashboard).not.toContain("tracker.example");
    expect(await homeHtml()).not.toContain("tracker.example");
  });

  test("a Google picture is the avatar on the profile and on reviews", async () => {
    const { user, cookie } = await signedIn();
    const picture = "https://lh3.googleusercontent.com/a/test-picture=s96-c";
    await User.updateOne({ _id: user.id }, { $set: { photoUrl: picture } });
    await postReview(cookie, `Google face ${crypto.randomUUID()}`);
    expect((await Review.findOne({ userId: user.id }).lean())?.img).toBe(picture);
  });

  test("the migration removes typed addresses from users and reviews and keeps Google's", async () => {
    const typed = await createUser();
    const google = await createUser();
    const picture = "https://lh3.googleusercontent.com/a/keep-me";
    await User.updateOne({ _id: typed.id }, { $set: { photoUrl: "https://tracker.example/a.png" } });
    await User.updateOne({ _id: google.id }, { $set: { photoUrl: picture } });
    const review = await Review.create({
      userName: "Old Review",
      email: "old@example.com",
      img: "https://tracker.example/b.png",
      rating: 3,
      description: "From before the change",
    });
    await avatarMigration.up(mongoose.connection.db);
    expect((await User.findById(typed.id).lean())?.photoUrl).toBeUndefined();
    expect((await User.findById(google.id).lean())?.photoUrl).toBe(picture);
    expect((await Review.findById(review._id).lean())?.img).toBe("/images/default-avatar.svg");
  });
});

function multipartRequest(fields: Record<string, string | Blob>, cookie: string, filename = "me.png") {
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === "string") body.append(key, value);
    else body.append(key, value, filename);
  }
  return new Request(new URL("/dashboard?index", SHOP), { method: "POST", body, headers: { Cookie: cookie } });
}

/** A real 64x48 PNG (the stored copy is decoded and encoded again, so a bare signature no longer passes). */
const PNG = new Uint8Array(
  await sharp({ create: { width: 64, height: 48, channels: 3, background: "#3366cc" } })
    .png()
    .toBuffer(),
);
/** A photo as a phone takes it: a JPEG whose EXIF says where (GPS) and with what camera. */
const GEOTAGGED_JPEG = new Uint8Array(
  await sharp({ create: { width: 800, height: 600, channels: 3, background: "#aa5500" } })
    .jpeg()
    .withExif({
      IFD0: { Make: "PhoneMaker", Model: "Pocket 9" },
      IFD3: {
        GPSLatitudeRef: "N",
        GPSLatitude: "48/1 51/1 2409/100",
        GPSLongitudeRef: "E",
        GPSLongitude: "2/1 21/1 741/100",
      },
    })
    .toBuffer(),
);
const storedAvatar = (photoUrl: string) =>
  path.resolve(process.env.AVATAR_DIR ?? path.join(process.env.DATA_DIR ?? ".data", "avatars"), photoUrl.slice(9));

describe("uploaded profile pictures", () => {
  test("a PNG is stored in our storage, served by our route as image/png and becomes the avatar", async () => {
    const { user, cookie } = await signedIn();
    const response = await settle(
      profileAction(actionArgs(multipartRequest({ intent: "avatar", avatar: new Blob([PNG]) }, cookie))),
    );
    expect(response.status).toBe(302);
    expect((await toastOf(response))?.message).toBe("Profile picture saved");
    const photoUrl = (await User.findById(user.id).lean())?.photoUrl ?? "";
    expect(photoUrl).toMatch(/^\/avatars\/[a-f0-9]{32}\.png$/);
    const name = photoUrl.slice("/avatars/".length);
    const served = await settle(avatarLoader(loaderArgs(getRequest(photoUrl), { name })));
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/png");
    expect(served.headers.get("X-Content-Type-Options")).toBe("nosniff");
    const servedBytes = Buffer.from(await served.arrayBuffer());
    expect(await sharp(servedBytes).metadata()).toMatchObject({ format: "png", width: 64, height: 48 });

    await postReview(cookie, `Uploaded face ${crypto.randomUUID()}`);
    expect((await Review.findOne({ userId: user.id }).lean())?.img).toBe(photoUrl);

    const removed = await post(profileAction, "/dashboard?index", { intent: "avatar-remove" }, cookie);
    expect(removed.status).toBe(302);
    expect((await User.findById(user.id).lean())?.photoUrl).toBeUndefined();
    // The removed picture's file is gone too.
    expect(existsSync(storedAvatar(photoUrl))).toBe(false);
  });

  test("a phone photo is stored re-encoded, without its EXIF (GPS, camera), and at most 512 px a side", async () => {
    expect((await sharp(Buffer.from(GEOTAGGED_JPEG)).metadata()).exif).toBeDefined();
    const { user, cookie } = await signedIn();
    const response = await settle(
      profileAction(actionArgs(multipartRequest({ intent: "avatar", avatar: new Blob([GEOTAGGED_JPEG]) }, cookie))),
    );
    expect(response.status).toBe(302);
    const photoUrl = (await User.findById(user.id).lean())?.photoUrl ?? "";
    expect(photoUrl).toMatch(/\.jpg$/);
    const stored = readFileSync(storedAvatar(photoUrl));
    const meta = await sharp(stored).metadata();
    expect(meta).toMatchObject({ format: "jpeg", width: 512, height: 384 });
    expect(meta.exif).toBeUndefined();
    expect(stored.includes(Buffer.from("PhoneMaker"))).toBe(false);
  });

  test("a new picture replaces the old one's file; an eleventh upload within the hour waits", async () => {
    const { user, cookie } = await signedIn();
    const upload = () =>
      settle(profileAction(actionArgs(multipartRequest({ intent: "avatar", avatar: new Blob([PNG]) }, cookie))));
    const files: string[] = [];
    for (let i = 1; i <= 10; i++) {
      expect((await upload()).status).toBe(302);
      files.push(storedAvatar((await User.findById(user.id).lean())?.photoUrl ?? ""));
    }
    expect(new Set(files).size).toBe(10);
    expect(files.filter((file) => existsSync(file))).toEqual([files[9]]);
    const eleventh = await upload();
    expect(eleventh.status).toBe(429);
    expect(JSON.stringify(await eleventh.json())).toContain("times this hour");
    expect(storedAvatar((await User.findById(user.id).lean())?.photoUrl ?? "")).toBe(files[9]);
  });

  test.each([
    [
      "an HTML page named .png",
      new Blob(["<html><script>alert(1)</script></html>"]),
      415,
      "Choose a PNG, JPEG or WebP picture",
    ],
    ["an SVG", new Blob(['<svg xmlns="http://www.w3.org/2000/svg"/>']), 415, "Choose a PNG, JPEG or WebP picture"],
    [
      "a PNG signature followed by no picture",
      new Blob([Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82])]),
      415,
      "Choose a PNG, JPEG or WebP picture",
    ],
    ["an empty file", new Blob([]), 400, "Choose a picture"],
    [
      "a picture over 512 KB",
      new Blob([PNG, new Uint8Array(512 * 1024)]),
      400,
      "The picture must be 512 KB or smaller",
    ],
  ])("%s is refused next to the field and nothing is stored", async (_label, file, status, message) => {
    const { user, cookie } = await signedIn();
    const response = await settle(
      profileAction(actionArgs(multipartRequest({ intent: "avatar", avatar: file }, cookie))),
    );
    expect(response.status).toBe(status);
    const body = await response.json();
    expect(body.error?.avatar).toEqual([message]);
    expect((await User.findById(user.id).lean())?.photoUrl).toBeUndefined();
  });

  test("the picture route serves only our own stored names", async () => {
    for (const name of ["../../package.json", "x.png", `${"a".repeat(32)}.svg`, `${"a".repeat(32)}.png`]) {
      const response = await settle(avatarLoader(loaderArgs(getRequest(`/avatars/${name}`), { name })));
      expect(response.status).toBe(404);
    }
  });
});
