import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Locator, Page } from "@playwright/test";
import type { Portfolio } from "~/content/content.server";
import { Part } from "~/models/part.server";
import { Review, DEFAULT_AVATAR } from "~/models/review.server";
import { expect, test } from "./fixtures";

/**
 * The public storefront: home, parts, blogs, portfolio, 404, as a visitor sees them, in both
 * projects (JavaScript on and off). Other tests add parts and reviews at the same time, so the
 * "newest" checks compare the page with the database as it was just before and just after the
 * page was loaded, and try again if something was added in between.
 */

// axe-core on full pages takes a while on a busy two-core machine.
test.describe.configure({ timeout: 60_000 });

const portfolio: Portfolio = JSON.parse(readFileSync("app/content/portfolio.json", "utf8"));

const token = () => randomUUID().replace(/-/g, "").slice(0, 10);

async function addPart(fields: { name: string; priceCents?: number; description?: string; partNumber?: string }) {
  const doc = await Part.create({
    name: fields.name,
    partNumber: fields.partNumber ?? `SF-${token().toUpperCase()}`,
    description: fields.description ?? "A part made for a storefront test.",
    img: "/images/parts/pw-1003.svg",
    priceCents: fields.priceCents ?? 500,
    minOrderQuantity: 100,
    availableQuantity: 1000,
  });
  return { id: doc._id.toString(), name: doc.name, priceCents: doc.priceCents, partNumber: doc.partNumber };
}

async function newestPartIds() {
  const docs = await Part.find().sort({ createdAt: -1, _id: -1 }).limit(6).select({ _id: 1 }).lean();
  return docs.map((doc) => doc._id.toString());
}

async function newestReviews() {
  return Review.find({ hidden: false }).sort({ createdAt: -1, _id: -1 }).limit(3).lean();
}

function section(page: Page, name: string) {
  return page.getByRole("region", { name, exact: true });
}

async function hrefs(links: Locator) {
  return links.evaluateAll((elements) => elements.map((element) => element.getAttribute("href")));
}

test.describe("home", () => {
  test("shows the six sections in order, the newest parts and reviews, the figures and contacts", async ({
    page,
    checkA11y,
    db: _db,
  }) => {
    const longText = `${"Sturdy parts, quick pick-up and friendly staff. ".repeat(3)}Ordered 400 brake pads and 200 filters; all arrived well packed and on time.`;
    expect(longText.length).toBeGreaterThan(150);

    // The newest parts and reviews, each with one of this test's own added at each attempt, so the
    // page must have picked them up; one load of the page for both, then the rest is read from it.
    const parts = section(page, "Available Car Parts");
    const reviews = section(page, "Customer Reviews");
    let mine = { id: "", name: "" };
    let reviewer = "";
    await expect(async () => {
      mine = await addPart({
        name: `Home Test Bracket ${token()}`,
        priceCents: 1234,
        description: "A galvanised steel bracket that holds the exhaust in place.",
      });
      reviewer = `Rita Reviewer ${token()}`;
      await Review.create({ userName: reviewer, email: "rita@example.com", rating: 4, description: longText });
      const before = { parts: await newestPartIds(), reviews: await newestReviews() };
      const response = await page.goto("/");
      expect(response?.status()).toBe(200);
      const after = { parts: await newestPartIds(), reviews: await newestReviews() };
      expect(after.parts, "no part was added while the page loaded").toEqual(before.parts);
      expect(
        after.reviews.map((r) => r._id.toString()),
        "no review was added while the page loaded",
      ).toEqual(before.reviews.map((r) => r._id.toString()));

      // Available Car Parts: the six newest parts, each card with its own Purchase link.
      expect(before.parts).toContain(mine.id);
      await expect(parts.getByRole("listitem")).toHaveCount(6);
      expect(await hrefs(parts.getByRole("link", { name: /^Purchase/ }))).toEqual(
        before.parts.map((id) => `/parts/${id}`),
      );

      // Customer Reviews: the three newest, text cut at 150 characters, the rating as stars.
      expect(before.reviews.map((r) => r.userName)).toContain(reviewer);
      const items = reviews.getByRole("listitem");
      await expect(items).toHaveCount(3);
      await expect(items.getByRole("heading")).toHaveText(before.reviews.map((r) => r.userName));
      for (const [index, review] of before.reviews.entries()) {
        const item = items.nth(index);
        const text =
          review.description.length > 150 ? `${review.description.slice(0, 150).trimEnd()}…` : review.description;
        await expect(item.getByTestId("review-text")).toHaveText(text);
        const stars = item.getByRole("img", { name: `${review.rating} out of 5 stars` });
        await expect(stars.locator("svg")).toHaveCount(review.rating);
      }
    }).toPass({ timeout: 30_000 });

    // One h1 (the hero), then the five sections, in the spec's order.
    await expect(page.locator("main h1, main h2")).toHaveText([
      "Buy car parts online and pick them up in store in 30 minutes",
      "Available Car Parts",
      "Business Summary",
      "Customer Reviews",
      "Contact Us",
      "Available Brands",
    ]);
    await expect(page.locator("h1")).toHaveCount(1);

    // Hero
    const hero = section(page, "Buy car parts online and pick them up in store in 30 minutes");
    await expect(hero).toContainText("Free standard shipping on orders over $35");
    await expect(hero.getByRole("link", { name: "Shop Now" })).toHaveAttribute("href", "/parts");

    const card = parts.getByRole("listitem").filter({ has: page.getByRole("heading", { name: mine.name }) });
    await expect(card.getByRole("img", { name: mine.name })).toHaveAttribute("loading", "lazy");
    await expect(card).toContainText("A galvanised steel bracket that holds the exhaust in place.");
    await expect(card.getByTestId("min-order")).toHaveText("100 units");
    await expect(card.getByTestId("available")).toHaveText("1,000 units");
    await expect(card.getByTestId("price")).toHaveText("$12.34");
    await expect(card.getByRole("link", { name: `Purchase ${mine.name}` })).toHaveAttribute(
      "href",
      `/parts/${mine.id}`,
    );

    // Business Summary: the static figures.
    const summary = section(page, "Business Summary");
    await expect(summary.locator("dd")).toHaveText(["300+", "31K+", "31M+", "10,000+"]);
    await expect(summary.locator("dt")).toHaveText(["Customers", "Annual revenue", "Reviews", "Parts"]);

    const rita = reviews.getByRole("listitem").filter({ hasText: reviewer });
    await expect(rita.getByTestId("review-text")).toHaveText(`${longText.slice(0, 150).trimEnd()}…`);
    await expect(rita.getByRole("img", { name: "4 out of 5 stars" }).locator("svg")).toHaveCount(4);
    await expect(rita.locator("img").first()).toHaveAttribute("src", DEFAULT_AVATAR);
    await expect(reviews.getByRole("status", { name: "Loading reviews" })).toHaveCount(0);

    // Contact Us: a lazy map with a text fallback, location, e-mail, phone, labelled social links.
    const contact = section(page, "Contact Us");
    const map = contact.locator("iframe");
    await expect(map).toHaveAttribute("loading", "lazy");
    await expect(map).toHaveAttribute("title", /Map showing PartsWorks/);
    await expect(map).toHaveAttribute("src", /^https:\/\/www\.openstreetmap\.org\//);
    await expect(contact.locator("address")).toContainText("1200 Woodward Avenue");
    await expect(contact.getByRole("link", { name: /Open the map on OpenStreetMap/ })).toHaveAttribute(
      "href",
      /^https:\/\/www\.openstreetmap\.org\//,
    );
    await expect(contact.getByRole("link", { name: "sales@partsworks.com" })).toHaveAttribute(
      "href",
      "mailto:sales@partsworks.com",
    );
    await expect(contact.getByRole("link", { name: "+1 (313) 555-0142" })).toHaveAttribute("href", "tel:+13135550142");
    const social = contact.getByRole("list", { name: "Social media" }).getByRole("link");
    await expect(social).toHaveCount(5);
    for (const network of ["Facebook", "X", "LinkedIn", "YouTube", "Instagram"]) {
      await expect(
        social.and(page.getByRole("link", { name: `PartsWorks on ${network} (opens in a new tab)` })),
      ).toHaveAttribute("href", /^https:\/\/(www\.)?[a-z]+\.com\/.+/);
    }

    // Available Brands: five logos shipped in public/.
    const logos = section(page, "Available Brands").getByRole("img");
    await expect(logos).toHaveCount(5);
    for (const src of await logos.evaluateAll((images) => images.map((image) => image.getAttribute("src")!))) {
      const logo = await page.request.get(src);
      expect(logo.status(), src).toBe(200);
      expect(logo.headers()["content-type"]).toContain("image/svg+xml");
    }

    await checkA11y();
  });

  // Tagged @js-on: HTTP requests and their headers, no page shown: the JavaScript-off project would repeat it exactly.
  test(
    "is shared-cacheable for visitors and private once signed in",
    { tag: "@js-on" },
    async ({ page, request, login }) => {
      const anonymous = await request.get("/");
      expect(anonymous.headers()["cache-control"]).toBe("public, max-age=0, s-maxage=60, stale-while-revalidate=300");
      expect(anonymous.headers()["vary"]).toContain("Cookie");
      expect(anonymous.headers()["set-cookie"]).toBeUndefined();
      expect(await anonymous.text()).not.toContain("Sign Out");

      const user = await login({ name: `Paula Private ${token()}` });
      const signedIn = await page.request.get("/");
      expect(signedIn.headers()["cache-control"]).toBe("private, no-store");
      expect(await signedIn.text()).toContain(user.name);

      for (const path of ["/parts", "/blogs", "/portfolio"]) {
        expect((await request.get(path)).headers()["cache-control"], path).toContain("s-maxage=60");
        expect((await page.request.get(path)).headers()["cache-control"], path).toBe("private, no-store");
      }
    },
  );
});

test.describe("parts", () => {
  test("search by name, sort by price and page through the results, all in the URL", async ({
    page,
    checkA11y,
    db: _db,
  }) => {
    const word = `Zq${token()}`;
    // 26 parts: three pages of 12. Prices shuffled so that no order is accidental.
    const prices = [
      700, 1500, 300, 1200, 900, 100, 1400, 500, 1100, 200, 1300, 600, 1000, 800, 2600, 1700, 2300, 1900, 2100, 1600,
      2500, 1800, 2200, 2000, 2400, 400,
    ];
    const created = [];
    for (const [index, priceCents] of prices.entries()) {
      created.push(await addPart({ name: `${word} Gasket ${String(index).padStart(2, "0")}`, priceCents }));
    }
    const byPriceAsc = [...created].sort((a, b) => a.priceCents - b.priceCents).map((p) => p.name);
    const q = word.toLowerCase();

    await page.goto("/parts");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("All Car Parts");
    const search = page.getByRole("search", { name: "Search parts" });
    // Different case from the stored name: the search ignores case.
    await search.getByLabel("Search by name or part number").fill(q);
    await search.getByLabel("Sort by").selectOption({ label: "Price: low to high" });
    await search.getByRole("button", { name: "Search" }).click();

    await expect(page).toHaveURL(new RegExp(`/parts\\?q=${q}&sort=price-asc$`));
    await expect(page.getByTestId("results-summary")).toHaveText(`Showing 1–12 of 26 parts matching “${q}”.`);
    const names = page.getByRole("list", { name: "Parts" }).getByRole("heading", { level: 2 });
    await expect(names).toHaveText(byPriceAsc.slice(0, 12));
    // The form shows what was searched for.
    await expect(search.getByLabel("Search by name or part number")).toHaveValue(q);
    await expect(search.getByLabel("Sort by")).toHaveValue("price-asc");

    // Next: page 2, reached through a cursor on the sort index (the last card of page 1).
    const pagination = page.getByRole("navigation", { name: "Pagination" });
    await expect(pagination.getByRole("link", { name: "Page 1" })).toHaveAttribute("aria-current", "page");
    await pagination.getByRole("link", { name: "Next page" }).click();
    await expect(page).toHaveURL(new RegExp(`/parts\\?q=${q}&sort=price-asc&page=2&after=\\d+_[a-f0-9]{24}$`));
    await expect(names).toHaveText(byPriceAsc.slice(12, 24));
    await expect(page.getByTestId("results-summary")).toHaveText(`Showing 13–24 of 26 parts matching “${q}”.`);
    await expect(pagination.getByRole("link", { name: "Page 2" })).toHaveAttribute("aria-current", "page");

    // The last page needs no cursor.
    await pagination.getByRole("link", { name: "Next page" }).click();
    await expect(page).toHaveURL(new RegExp(`/parts\\?q=${q}&sort=price-asc&page=3$`));
    await expect(names).toHaveText(byPriceAsc.slice(24));
    await expect(page.getByTestId("results-summary")).toHaveText(`Showing 25–26 of 26 parts matching “${q}”.`);
    await expect(pagination.getByRole("link", { name: "Next page" })).toHaveCount(0);
    await checkA11y();

    // Back to page 2 through the first card of page 3, then to page 1.
    await pagination.getByRole("link", { name: "Previous page" }).click();
    await expect(page).toHaveURL(new RegExp(`/parts\\?q=${q}&sort=price-asc&page=2&before=\\d+_[a-f0-9]{24}$`));
    await expect(names).toHaveText(byPriceAsc.slice(12, 24));
    await pagination.getByRole("link", { name: "Previous page" }).click();
    await expect(page).toHaveURL(new RegExp(`/parts\\?q=${q}&sort=price-asc$`));
    await expect(names).toHaveText(byPriceAsc.slice(0, 12));

    // Highest price first.
    await search.getByLabel("Sort by").selectOption("price-desc");
    await search.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(new RegExp(`sort=price-desc$`));
    await expect(names).toHaveText([...byPriceAsc].reverse().slice(0, 12));

    // Newest first (the default): the last one created leads.
    await page.goto(`/parts?q=${word}`);
    await expect(names).toHaveText(
      created
        .map((p) => p.name)
        .reverse()
        .slice(0, 12),
    );
    await checkA11y();
  });

  test("finds a part by the start of its part number, in any case", async ({ page, db: _db }) => {
    const part = await addPart({ name: `Storefront Nozzle ${token()}`, partNumber: `NZ-${token().toUpperCase()}` });
    await page.goto(`/parts?q=${encodeURIComponent(part.partNumber.slice(0, 9).toLowerCase())}`);
    await expect(page.getByRole("list", { name: "Parts" }).getByRole("heading", { level: 2 })).toHaveText([part.name]);
    await expect(page.getByRole("link", { name: `Purchase ${part.name}` })).toHaveAttribute(
      "href",
      `/parts/${part.id}`,
    );
  });

  test("matches what was typed literally and shows an empty state", async ({ page, checkA11y, db: _db }) => {
    const word = `Lit${token()}`;
    const part = await addPart({ name: `${word} Bolt (M8) [zinc]` });

    await page.goto(`/parts?q=${encodeURIComponent(`${word} Bolt (M8) [zinc]`)}`);
    await expect(page.getByRole("list", { name: "Parts" }).getByRole("heading", { level: 2 })).toHaveText([part.name]);

    // As a regular expression ".*" would match everything; search ignores it as punctuation.
    const response = await page.goto(`/parts?q=${encodeURIComponent(".*")}`);
    expect(response?.status()).toBe(200);
    await expect(page.getByTestId("empty-state")).toContainText("No parts match “.*”");
    // A word that starts no word of any part finds nothing either.
    await page.goto(`/parts?q=${encodeURIComponent(`${word}zz`)}`);
    await expect(page.getByTestId("empty-state")).toContainText(`No parts match “${word}zz”`);
    await expect(page.getByRole("list", { name: "Parts" })).toHaveCount(0);
    await checkA11y();
    await page.getByRole("link", { name: "see all parts" }).click();
    await expect(page).toHaveURL(/\/parts$/);
    await expect(page.getByRole("list", { name: "Parts" }).getByRole("listitem").first()).toBeVisible();
  });

  test("refuses an over-long search with a message at the field, and survives bad parameters", async ({
    page,
    checkA11y,
  }) => {
    const response = await page.goto(`/parts?q=${"x".repeat(101)}`);
    expect(response?.status()).toBe(400);
    const input = page.getByLabel("Search by name or part number");
    await expect(input).toHaveAttribute("aria-invalid", "true");
    const errorId = await input.getAttribute("aria-describedby");
    await expect(page.locator(`[id="${errorId}"]`)).toHaveText("Search for 100 characters at most");
    await expect(page.getByRole("list", { name: "Parts" })).toHaveCount(0);
    await checkA11y();

    // A made-up sort or page falls back to the defaults; an operator object is just text.
    const fallback = await page.goto("/parts?sort=%7B%22%24gt%22%3A%22%22%7D&page=-3");
    expect(fallback?.status()).toBe(200);
    await expect(page.getByLabel("Sort by")).toHaveValue("newest");
    await expect(page.getByRole("list", { name: "Parts" }).getByRole("listitem")).not.toHaveCount(0);
    const operator = await page.goto(`/parts?q=${encodeURIComponent('{"$gt": ""}')}`);
    expect(operator?.status()).toBe(200);
    await expect(page.getByTestId("empty-state")).toBeVisible();

    // Past the last page: a 404 with a way back.
    const beyond = await page.goto("/parts?page=99999");
    expect(beyond?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "There is no page 99999" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Go to the last page" })).toHaveAttribute("href", /\/parts\?page=\d+$/);
  });
});

test("blogs: panels open and close, and the questions come from /blogs.json", async ({ page, request, checkA11y }) => {
  const file = await request.get("/blogs.json");
  expect(file.status()).toBe(200);
  const items = (await file.json()) as { id: number; Question: string; Ans: string }[];
  expect(items.length).toBeGreaterThanOrEqual(5);

  await page.goto("/blogs");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Some Question Answers...");
  await expect(page.locator("main summary")).toHaveText(items.map((item) => item.Question));

  const first = page.locator("main details").first();
  const answer = first.getByText(items[0].Ans);
  await expect(answer).toBeHidden();
  await first.locator("summary").click();
  await expect(answer).toBeVisible();
  await checkA11y();
  await first.locator("summary").click();
  await expect(answer).toBeHidden();
});

test("portfolio: contact details, education, skills and project links from the content file", async ({
  page,
  checkA11y,
}) => {
  await page.goto("/portfolio");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(portfolio.name);
  await expect(page.getByRole("link", { name: portfolio.contact.email })).toHaveAttribute(
    "href",
    `mailto:${portfolio.contact.email}`,
  );
  await expect(page.getByRole("link", { name: portfolio.contact.phone })).toHaveAttribute("href", /^tel:\+/);
  for (const link of portfolio.contact.links) {
    await expect(page.locator(`a[href="${link.url}"]`)).toBeVisible();
  }
  const education = page.getByRole("region", { name: "Education" });
  await expect(education.getByRole("heading", { level: 3 })).toHaveText(portfolio.education.map((e) => e.degree));
  await expect(page.getByRole("list", { name: "Skills" }).getByRole("listitem")).toHaveText(portfolio.skills);
  const projects = page.getByRole("region", { name: "Projects" });
  for (const project of portfolio.projects) {
    await expect(projects.getByRole("link", { name: `Visit ${project.name}` })).toHaveAttribute("href", project.url);
  }
  await checkA11y();
});

test("an unknown page is a 404 with the error image and a way home", async ({ page, checkA11y }) => {
  const response = await page.goto(`/no-such-page-${token()}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("img", { name: /Error 404/ })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("We could not find that page");
  await expect(page.getByRole("link", { name: "Go to the home page" })).toHaveAttribute("href", "/");
  await checkA11y();
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the menu opens without JavaScript and leads to the pages", async ({ page, checkA11y }) => {
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main" });
    const blogs = nav.getByRole("link", { name: "Blogs" });
    await expect(blogs).toBeHidden();
    await nav.getByText("Menu").click();
    await expect(blogs).toBeVisible();
    await expect(nav.getByRole("link", { name: "Portfolio" })).toBeVisible();
    await checkA11y();
    await blogs.click();
    await expect(page).toHaveURL(/\/blogs$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Some Question Answers...");
    // The menu is closed again on the new page.
    await expect(nav.getByRole("link", { name: "Portfolio" })).toBeHidden();
    await nav.getByText("Menu").click();
    await nav.getByRole("link", { name: "Portfolio" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(portfolio.name);
    await expect(nav.getByRole("link", { name: "Blogs" })).toBeHidden();
  });
});

// Tagged @js-on: an HTTP client's requests, no browser page: the JavaScript-off project would repeat it exactly.
test(
  "sitemap.xml indexes the public pages and every part, and robots.txt points at it",
  { tag: "@js-on" },
  async ({ request, baseURL }) => {
    const sitemap = await request.get("/sitemap.xml");
    expect(sitemap.status()).toBe(200);
    expect(sitemap.headers()["content-type"]).toContain("application/xml");
    const index = await sitemap.text();
    expect(index).toContain(`<loc>${baseURL}/sitemaps/pages</loc>`);
    expect(index).toContain(`<loc>${baseURL}/sitemaps/parts-1</loc>`);
    const xml = await (await request.get("/sitemaps/pages")).text();
    for (const path of ["/", "/parts", "/blogs", "/portfolio"]) expect(xml).toContain(`<loc>${baseURL}${path}</loc>`);
    expect(xml).not.toContain("/dashboard");
    const parts = await request.get("/sitemaps/parts-1");
    expect(parts.headers()["content-type"]).toContain("application/xml");
    expect(await parts.text()).toMatch(new RegExp(`<loc>${baseURL}/parts/[a-f0-9]{24}</loc>`));

    const robots = await request.get("/robots.txt");
    expect(robots.status()).toBe(200);
    const text = await robots.text();
    expect(text).toContain("Disallow: /dashboard");
    expect(text).toContain(`Sitemap: ${baseURL}/sitemap.xml`);

    const favicon = await request.get("/favicon.ico");
    expect(favicon.status()).toBe(200);
  },
);
