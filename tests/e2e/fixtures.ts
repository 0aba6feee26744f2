import { test as base, expect, type Page, type Route } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { connectDb } from "~/utils/db.server";
import { createPart, createUser, sessionCookieValue } from "../setup/factories";
import type { Role } from "~/models/user.server";

type TestUser = Awaited<ReturnType<typeof createUser>>;

export const test = base.extend<
  {
    /** Creates a user and signs this browser context in as them (writes the session directly). */
    login: (options?: { role?: Role; name?: string; email?: string; verified?: boolean }) => Promise<TestUser>;
    createPart: typeof createPart;
    /** Fails the test on any axe-core violation of the current page. */
    checkA11y: () => Promise<void>;
  },
  {
    db: void;
    /** A page with JavaScript on, kept for the worker, where checkA11y checks pages shown without it. */
    a11yTwin: Page;
  }
>({
  db: [
    async ({}, use) => {
      const uri = process.env.MONGODB_URI;
      if (!uri) throw new Error("MONGODB_URI is not set: run the tests with `npm test e2e`");
      await connectDb(uri);
      await use();
    },
    { scope: "worker" },
  ],
  a11yTwin: [
    async ({ browser }, use) => {
      const context = await browser.newContext({ javaScriptEnabled: true });
      await use(await context.newPage());
      await context.close();
    },
    { scope: "worker" },
  ],
  login: async ({ context, baseURL, db: _db }, use) => {
    await use(async (options = {}) => {
      const user = await createUser(options);
      const { value } = await sessionCookieValue(user.id);
      await context.addCookies([{ name: "__session", value, url: baseURL! }]);
      return user;
    });
  },
  createPart: async ({ db: _db }, use) => {
    await use(createPart);
  },
  checkA11y: async ({ page, a11yTwin, javaScriptEnabled }, use) => {
    await use(async () => {
      if (javaScriptEnabled) {
        const results = await new AxeBuilder({ page }).analyze();
        expect(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
        return;
      }
      // axe-core runs inside the page and hangs where JavaScript is off (dequelabs/axe-core-npm#529).
      // So the page as this browser shows it (its current DOM, <noscript> content included) is
      // checked in a JavaScript-enabled twin at the same URL and size, with the app's scripts
      // removed so nothing hydrates or changes it.
      const html = (await page.content())
        .replace(/<script\b[\s\S]*?<\/script>/gi, "")
        .replace(/<link\b[^>]*rel="modulepreload"[^>]*>/gi, "")
        .replace(/<\/?noscript>/gi, "");
      const url = page.url();
      const twin = a11yTwin;
      await twin.setViewportSize(page.viewportSize()!);
      const serve = (route: Route) =>
        route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html });
      const isPage = (target: URL) => target.href === url;
      await twin.route(isPage, serve);
      try {
        // A URL that differs only in its #fragment would not load again.
        if (twin.url().split("#")[0] === url.split("#")[0]) await twin.goto("about:blank");
        await twin.goto(url);
        await expect(twin.locator("body")).toHaveText(await page.locator("body").innerText(), { useInnerText: true });
        const results = await new AxeBuilder({ page: twin }).analyze();
        expect(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
      } finally {
        await twin.unroute(isPage, serve);
      }
    });
  },
});

export { expect };
