/**
 * The switches Playwright's Chromium is launched with (PDFs, browser tests): Playwright's own
 * `--disable-features` list is kept whole, since ours replaces it, and the omnibox popups stay off.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  CHROMIUM_ARGS,
  PLAYWRIGHT_CHROMIUM_ARGS,
  PLAYWRIGHT_DISABLED_FEATURES,
  toolChromiumPath,
} from "../../shared/chromium";

/** The features the installed playwright-core turns off, read from its source. */
function playwrightDisabledFeatures() {
  const lib = path.resolve("node_modules/playwright-core/lib");
  const files = readdirSync(lib, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".js"));
  for (const file of files) {
    const source = readFileSync(path.join(lib, file), "utf8");
    const list = /\bdisabledFeatures = \[([\s\S]*?)\]/.exec(source)?.[1];
    if (list) return [...list.matchAll(/^\s*"([^"]+)"/gm)].map((match) => match[1]);
  }
  throw new Error("playwright-core's disabledFeatures list was not found: see shared/chromium.ts");
}

const server = createServer((_request, response) => response.end("<!doctype html><title>t</title><p>page</p>"));
let url = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The targets a browser context has once a page in it has loaded: pages, and Chromium's own UI. */
async function targetTypes(args: string[]) {
  const browser = await chromium.launch({ executablePath: toolChromiumPath(process.env), args });
  try {
    const page = await browser.newPage();
    await page.goto(url);
    const session = await browser.newBrowserCDPSession();
    const { targetInfos } = await session.send("Target.getTargets");
    return targetInfos.map((target) => target.type).sort();
  } finally {
    await browser.close();
  }
}

describe("Chromium's switches", () => {
  test("repeat the installed Playwright's --disable-features list, which the one of ours replaces", () => {
    expect([...PLAYWRIGHT_DISABLED_FEATURES].sort()).toEqual(playwrightDisabledFeatures().sort());
  });

  test("start no omnibox WebUI in a browser context, where Playwright's own switches start two", async () => {
    expect(await targetTypes(CHROMIUM_ARGS)).toContain("browser_ui");
    expect(await targetTypes(PLAYWRIGHT_CHROMIUM_ARGS)).toEqual(["page"]);
  });
});
