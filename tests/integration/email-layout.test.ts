/**
 * Every email the shop sends, as a phone shows it: each address written in the HTML is a link to
 * that very address, and the message fits a 360 px wide screen without scrolling sideways, with a
 * long company name and long links in it. Rendered as the shop sends them (renderEmail) and laid
 * out by Debian's Chromium, all in one page, one message after the other.
 */
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { renderEmail } from "~/services/email.server";
import { PLAYWRIGHT_CHROMIUM_ARGS, toolChromiumPath } from "../../shared/chromium";
import {
  EMAIL_SAMPLES,
  LONG_WORD,
  exportedTemplates,
  shopUrl,
  templateModulesMissing,
  templateOf,
} from "../fixtures/emails";

const PHONE_WIDTH = 360;

type Laid = {
  html: string;
  text: string;
  /** The document's width at a 360 px viewport. */
  scrollWidth: number;
  /** Addresses in the HTML's text that are not inside a link to themselves, with the link's href if any. */
  unlinked: { url: string; href: string | null }[];
  hrefs: string[];
};

let browser: Browser | undefined;
const laidOut = new Map<string, Laid>();

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: toolChromiumPath(process.env), args: PLAYWRIGHT_CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport: { width: PHONE_WIDTH, height: 640 } });
  // A message loads nothing from anywhere: a request would be a tracking pixel or a remote font.
  await page.route("**/*", (route) => route.abort());
  for (const [sample, body] of Object.entries(EMAIL_SAMPLES)) {
    const { html, text } = await renderEmail(body);
    await page.setContent(html, { waitUntil: "load" });
    const found = await page.evaluate(() => {
      const unlinked: { url: string; href: string | null }[] = [];
      const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const match of (node.textContent ?? "").matchAll(/https?:\/\/[^\s<>"']+/g)) {
          // Punctuation after an address ends the sentence, not the address.
          const url = match[0].replace(/[.,;:!?)]+$/, "");
          const link = node.parentElement?.closest("a[href]") ?? null;
          const href = link?.getAttribute("href") ?? null;
          if (href !== url) unlinked.push({ url, href });
        }
      }
      return {
        scrollWidth: document.documentElement.scrollWidth,
        unlinked,
        hrefs: [...document.querySelectorAll("a[href]")].map((link) => link.getAttribute("href") ?? ""),
      };
    });
    laidOut.set(sample, { html, text, ...found });
  }
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

describe("every email, on a phone", () => {
  test("the samples cover every template of app/emails, with a long company name and long links", () => {
    expect(templateModulesMissing()).toEqual([]);
    const sampled = new Set(Object.keys(EMAIL_SAMPLES).map(templateOf));
    expect(exportedTemplates().filter((template) => !sampled.has(template))).toEqual([]);
    expect([...laidOut.values()].filter(({ html }) => html.includes(LONG_WORD)).length).toBeGreaterThanOrEqual(10);
    expect(shopUrl.length).toBeGreaterThan(60);
  });

  test("every address in the HTML's text is a link to itself; the plain-text part writes out every link", () => {
    const problems: string[] = [];
    for (const [sample, { text, unlinked, hrefs }] of laidOut) {
      for (const { url, href } of unlinked) {
        problems.push(`${sample}: ${url} is ${href ? `inside a link to ${href}` : "text, not a link"}`);
      }
      if (!hrefs.length) problems.push(`${sample}: no link at all`);
      for (const href of hrefs) {
        if (!href.startsWith("https://")) problems.push(`${sample}: ${href} is no full https URL`);
        if (!text.includes(href)) problems.push(`${sample}: the plain-text part lacks ${href}`);
      }
    }
    expect(problems).toEqual([]);
  });

  test(`fits a ${PHONE_WIDTH} px screen: nothing wider, and no fixed width above it`, () => {
    const problems: string[] = [];
    for (const [sample, { html, scrollWidth }] of laidOut) {
      if (scrollWidth > PHONE_WIDTH) problems.push(`${sample}: ${scrollWidth} px wide`);
      // A fixed width (an attribute or a style, not a max-width) wider than the phone.
      const widths = [
        ...html.matchAll(/\swidth="(\d+)(?:px)?"/g),
        ...html.matchAll(/(?<![-\w])(?:min-)?width:\s*(\d+(?:\.\d+)?)px/g),
      ];
      for (const [written, pixels] of widths) {
        if (Number(pixels) > PHONE_WIDTH) problems.push(`${sample}: ${written.trim()}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
