import {
  test as base,
  expect,
  type BrowserContext,
  type BrowserContextOptions,
  type CDPSession,
  type Page,
  type Response,
  type Route,
} from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import axe from "axe-core";
import { existsSync } from "node:fs";
import path from "node:path";
import { connectDb } from "~/services/db.server";
import { createPart, createUser, sessionCookieValue } from "../setup/factories";
import type { Role } from "~/models/user.server";

type TestUser = Awaited<ReturnType<typeof createUser>>;

/**
 * One browser context and page per worker, made as new again before each test: a new context costs
 * a test about 0.4 s of Chromium's CPU, most of it the renderer its first page starts. Playwright's
 * own `reuseContext` resets through about:blank, which still starts a renderer per test; this reset
 * stays on the shop's origin. Before each test the previous page is left for a plain text page of
 * the shop (its scripts and requests stop), then cookies, routes, extra pages and storage are
 * cleared and the viewport and media are set again. A worker that saw a failure is replaced, and a
 * retry gets a context of its own.
 *
 * The browser cache is cleared only after a test that was given an answer it could show again
 * without asking (a visitor's page, kept for stale-while-revalidate): a later test must never see
 * an earlier one's catalogue. What cannot change until the next build stays cached, as it would
 * for a visitor going from page to page; a cold cache cost each test's first page about 0.08 s of
 * Chromium's CPU.
 */
type WorkerPage = { key?: string; context?: BrowserContext; page?: Page; cdp?: CDPSession; reusedAnswer?: boolean };

/** Answers the same for everyone until the next build: fingerprinted files, profile pictures, public/'s files, these. */
const UNCHANGING = ["/build/", "/avatars/", "/robots.txt", "/api/docs"];

/** Whether the browser may show this answer again without asking the shop, when it could have changed. */
function reusableAnswer(response: Response) {
  const cacheControl = response.headers()["cache-control"] ?? "";
  if (/no-store|no-cache|immutable/.test(cacheControl)) return false;
  const lifetimes = [...cacheControl.matchAll(/(?:^|[\s,])(max-age|stale-while-revalidate)=(\d+)/g)];
  if (!lifetimes.some(([, , seconds]) => Number(seconds) > 0)) return false;
  const { pathname } = new URL(response.url());
  if (UNCHANGING.some((prefix) => pathname.startsWith(prefix))) return false;
  // Not decoded (a malformed escape would throw in the listener): an escaped name counts as changeable.
  return !existsSync(path.join("public", pathname));
}

/** React 18's hydration errors (production builds give their numbers: 418, 419, 422, 423, 425). */
const HYDRATION_ERROR = /hydrat|Minified React error #(418|419|422|423|425)\b/i;

/** The page events tests listen to: their listeners are dropped when the test ends. */
const TEST_EVENTS = [
  "console",
  "pageerror",
  "request",
  "response",
  "requestfailed",
  "requestfinished",
  "dialog",
  "popup",
];

async function resetWorkerPage(workerPage: Required<WorkerPage>, options: BrowserContextOptions) {
  const { context, page, cdp } = workerPage;
  for (const other of context.pages()) if (other !== page) await other.close();
  await page.unrouteAll({ behavior: "ignoreErrors" });
  await context.unrouteAll({ behavior: "ignoreErrors" });
  await page.goto(new URL("/robots.txt", options.baseURL).href);
  await context.clearCookies();
  if (options.javaScriptEnabled) {
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
  }
  if (workerPage.reusedAnswer) await cdp.send("Network.clearBrowserCache");
  workerPage.reusedAnswer = false;
  await page.emulateMedia({ media: null, colorScheme: null, reducedMotion: null });
  if (options.viewport) await page.setViewportSize(options.viewport);
}

/** axe-core 4.13's experimental rules with a WCAG 2.x A or AA tag (a speech user's link names among them). */
const EXPERIMENTAL_WCAG_RULES = [
  "css-orientation-lock",
  "label-content-name-mismatch",
  "p-as-heading",
  "table-fake-caption",
  "td-has-header",
];

/**
 * axe-core's violations on the page, with every rule (axe-core's experimental ones aside). Run with axe.run in the page itself (legacy
 * mode): the default gathers each frame's results in a new blank page, which cost each check about
 * 1 s of CPU for its renderer; what legacy mode leaves out, cross-origin frames, are third-party
 * content (the home page's map). Only violations are gathered in full, the part a check reads.
 * `tags` limits the run to the rules with those tags (e.g. the WCAG levels), `rules` to those rules;
 * without either every rule runs. A page whose context has axe preloaded (preloadAxe) runs it as it is.
 */
export async function axeViolations(page: Page, { tags, rules }: { tags?: string[]; rules?: string[] } = {}) {
  const options: axe.RunOptions = { resultTypes: ["violations"] };
  if (rules) options.runOnly = { type: "rule", values: rules };
  else if (tags) {
    options.runOnly = { type: "tag", values: tags };
    // axe-core leaves its experimental rules out of a run by tags; those of the WCAG levels run too.
    options.rules = Object.fromEntries(EXPERIMENTAL_WCAG_RULES.map((rule) => [rule, { enabled: true }]));
  }
  const preloaded = await page.evaluate(() => "axe" in window);
  const results = preloaded
    ? await page.evaluate((options) => (window as unknown as { axe: typeof axe }).axe.run(document, options), options)
    : await new AxeBuilder({ page }).setLegacyMode().options(options).analyze();
  // Each with the first elements it names, so a failure says where to look.
  return results.violations.map((v) => {
    const targets = v.nodes.slice(0, 3).map((node) => node.target.join(" "));
    return `${v.id}: ${v.help} (${v.nodes.length}: ${targets.join(", ")}${v.nodes.length > 3 ? ", …" : ""})`;
  });
}

/**
 * Loads axe-core into each document of the context as it opens (an init script, given to the browser
 * once), for pages checked again and again: AxeBuilder sends its 0.5 MB source with every check,
 * which was about a third of a screen's check in accessibility.spec.ts.
 */
/**
 * One page per role, opened the first time a test asks for it and kept for the worker (the screen
 * walks visit many screens as the same person); every page's context closes at the worker's end.
 */
export function pagesByRole<Role>(
  open: (role: Role) => Promise<Page>,
  onTeardown: (close: () => Promise<void>) => void,
) {
  const pages = new Map<Role, Promise<Page>>();
  onTeardown(async () => {
    for (const page of pages.values()) await (await page).context().close();
  });
  return (role: Role) => {
    if (!pages.has(role)) pages.set(role, open(role));
    return pages.get(role)!;
  };
}

export async function preloadAxe(context: BrowserContext) {
  await context.addInitScript({ content: axe.source });
}

type MakePerWorker<T> = (onTeardown: (close: () => Promise<void>) => void) => Promise<T>;

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
    workerPage: WorkerPage;
    /**
     * Made once per worker under a key, and torn down (`onTeardown`) when the worker ends. A file's
     * own worker-scoped fixture would instead give its tests workers, and browsers, of their own.
     */
    perWorker: <T>(key: string, make: MakePerWorker<T>) => Promise<T>;
  }
>({
  workerPage: [
    async ({}, use) => {
      const kept: WorkerPage = {};
      await use(kept);
      await kept.context?.close();
    },
    { scope: "worker" },
  ],
  context: async (
    {
      browser,
      workerPage,
      baseURL,
      contextOptions,
      viewport,
      javaScriptEnabled,
      userAgent,
      deviceScaleFactor,
      isMobile,
      hasTouch,
      ignoreHTTPSErrors,
    },
    use,
    testInfo,
  ) => {
    const options: BrowserContextOptions = {
      ...contextOptions,
      baseURL,
      viewport,
      javaScriptEnabled,
      userAgent,
      deviceScaleFactor,
      isMobile,
      hasTouch,
      ignoreHTTPSErrors,
    };
    // A test run again after a failure gets a context of its own, as Playwright would give it.
    if (testInfo.retry > 0) {
      const fresh = await browser.newContext(options);
      await use(fresh);
      await fresh.close();
      return;
    }
    const key = JSON.stringify({ ...options, viewport: null });
    if (workerPage.key !== key) {
      await workerPage.context?.close();
      const context = await browser.newContext(options);
      const page = await context.newPage();
      Object.assign(workerPage, { key, context, page, cdp: await context.newCDPSession(page), reusedAnswer: false });
      context.on("response", (response) => {
        if (!workerPage.reusedAnswer && reusableAnswer(response)) workerPage.reusedAnswer = true;
      });
    } else {
      await resetWorkerPage(workerPage as Required<WorkerPage>, options);
    }
    await use(workerPage.context!);
    for (const event of TEST_EVENTS) await workerPage.page!.removeAllListeners(event, { behavior: "ignoreErrors" });
  },
  page: async ({ context, workerPage }, use) => {
    const page = context === workerPage.context ? workerPage.page! : await context.newPage();
    // A page the server and the browser render differently is rendered again from scratch on hydration,
    // dropping what the user typed meanwhile: React's hydration errors fail the test.
    const hydrationErrors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" && HYDRATION_ERROR.test(message.text())) hydrationErrors.push(message.text());
    });
    await use(page);
    expect(hydrationErrors, "the page rendered differently in the browser than on the server").toEqual([]);
  },
  db: [
    async ({}, use) => {
      const uri = process.env.MONGODB_URI;
      if (!uri) throw new Error("MONGODB_URI is not set: run the tests with `npm test e2e`");
      await connectDb(uri);
      await use();
    },
    { scope: "worker" },
  ],
  perWorker: [
    async ({}, use) => {
      const made = new Map<string, Promise<unknown>>();
      const teardowns: (() => Promise<void>)[] = [];
      const onTeardown = (close: () => Promise<void>) => void teardowns.push(close);
      await use(<T>(key: string, make: MakePerWorker<T>) => {
        if (!made.has(key)) made.set(key, make(onTeardown));
        return made.get(key) as Promise<T>;
      });
      for (const close of teardowns.reverse()) await close();
    },
    { scope: "worker" },
  ],
  a11yTwin: [
    async ({ browser }, use) => {
      const context = await browser.newContext({ javaScriptEnabled: true });
      // It only ever loads pages to check them.
      await preloadAxe(context);
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
        expect(await axeViolations(page)).toEqual([]);
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
      // A request's URL has no #fragment: the page's own does, after a redirect to a part of it.
      const isPage = (target: URL) => target.href === url.split("#")[0];
      await twin.route(isPage, serve);
      try {
        // A URL that differs only in its #fragment would not load again.
        if (twin.url().split("#")[0] === url.split("#")[0]) await twin.goto("about:blank");
        await twin.goto(url);
        await expect(twin.locator("body")).toHaveText(await page.locator("body").innerText(), { useInnerText: true });
        expect(await axeViolations(twin)).toEqual([]);
      } finally {
        await twin.unroute(isPage, serve);
      }
    });
  },
});

export { expect };
