import { randomUUID } from "node:crypto";
import { Review } from "~/models/review.server";
import { Session } from "~/models/session.server";
import { createUser, sessionCookieValue } from "../setup/factories";
import { expect, test } from "./fixtures";

/** People and reviews, with JavaScript on and off (the two projects). */
test("an admin hides a review and it leaves the home page", async ({ page, login }) => {
  const customer = await createUser({ name: `Hugo Hidden ${randomUUID().slice(0, 6)}` });
  const text = `Hide this review ${randomUUID()}`;
  await Review.create({
    userId: customer.id,
    visibleUserId: customer.id,
    userName: customer.name,
    email: customer.email,
    rating: 2,
    description: text,
  });
  await login({ role: "admin" });
  await page.goto("/dashboard/reviews");
  const row = page.getByTestId("review-row").filter({ hasText: text });
  await expect(row).toContainText("On the home page");
  await row.getByRole("button", { name: `Hide the review by ${customer.name}` }).click();
  await expect(page.getByTestId("toast")).toContainText(`The review by ${customer.name} is hidden from the home page.`);
  await expect(page.getByTestId("review-row").filter({ hasText: text })).toContainText("Hidden by an admin");

  await page.goto("/");
  await expect(page.getByRole("list", { name: "Newest reviews" })).toBeVisible();
  await expect(page.getByText(text)).toHaveCount(0);
});

test("a user sees their sessions and ends the other ones", async ({ page, login }) => {
  const user = await login({ name: "Sam Sessions" });
  const { sessionId: laptop } = await sessionCookieValue(user.id);
  const { sessionId: tablet } = await sessionCookieValue(user.id);
  await page.goto("/dashboard");
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Your sessions" }).click();
  await expect(page).toHaveURL(/\/dashboard\/sessions$/);
  const rows = page.getByTestId("session-row");
  await expect(rows).toHaveCount(3);
  await expect(rows.filter({ hasText: "This device" })).toHaveCount(1);

  await rows
    .filter({ hasNotText: "This device" })
    .first()
    .getByRole("button", { name: /End session/ })
    .click();
  await expect(page.getByTestId("toast")).toContainText("has been signed out.");
  await expect(rows).toHaveCount(2);
  expect(await Session.countDocuments({ _id: { $in: [laptop, tablet] } })).toBe(1);

  await page.getByRole("button", { name: "Sign out all other sessions" }).click();
  await expect(page.getByTestId("toast")).toContainText("1 other session has been signed out.");
  await expect(rows).toHaveCount(1);
  await expect(page.getByText("You are signed in on this device only.")).toBeVisible();
  expect(await Session.countDocuments({ userId: user.id })).toBe(1);
});

test("a user uploads a profile picture; a file that is not a picture is refused", async ({ page, login }) => {
  await login({ name: "Uma Upload" });
  await page.goto("/dashboard");
  const section = page.getByRole("region", { name: "Profile picture" });
  await section.getByLabel("Picture").setInputFiles({
    name: "face.png",
    mimeType: "image/png",
    buffer: Buffer.from("<html>not a picture</html>"),
  });
  await section.getByRole("button", { name: "Upload picture" }).click();
  await expect(section.getByLabel("Picture")).toHaveAccessibleDescription("Choose a PNG, JPEG or WebP picture");

  await section.getByLabel("Picture").setInputFiles({
    name: "face.png",
    mimeType: "image/png",
    buffer: Buffer.from(TINY_PNG, "base64"),
  });
  await section.getByRole("button", { name: "Upload picture" }).click();
  await expect(page.getByTestId("toast")).toContainText("Profile picture saved");
  const picture = page.getByRole("img", { name: "Uma Upload's profile picture" });
  await expect(picture).toHaveAttribute("src", /^\/avatars\/[a-f0-9]{32}\.png$/);
  // Our own route serves it, and the browser decoded it as an image.
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
});

/** A 1 x 1 PNG. */
const TINY_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==";
