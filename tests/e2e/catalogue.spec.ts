import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { Part } from "~/models/part.server";
import { parseFitmentLine, type Category } from "~/domain/catalogue";
import { expect, test } from "./fixtures";

/**
 * Finding the part that fits: the vehicle picker (three choices), the filters with their counts,
 * a part number typed off an invoice, and what the part page tells search engines; with
 * JavaScript on (choices refine the list in place: a visitor's page through
 * app/browser/static-page.ts, a signed-in customer's through the router, see cart.spec.ts) and off (plain GET forms
 * and links).
 */

test.describe.configure({ timeout: 60_000 });

const token = () => randomUUID().replace(/-/g, "").slice(0, 8);

async function addPart(fields: {
  name: string;
  category?: Category;
  brand?: string;
  fits?: string[];
  oeNumbers?: string[];
  availableQuantity?: number;
  partNumber?: string;
}) {
  const doc = await Part.create({
    name: fields.name,
    partNumber: fields.partNumber ?? `EC-${token().toUpperCase()}`,
    description: "A part made for a catalogue test.",
    img: "/images/parts/pw-1001.svg",
    priceCents: 2400,
    minOrderQuantity: 100,
    availableQuantity: fields.availableQuantity ?? 1000,
    category: fields.category ?? "other",
    brand: fields.brand ?? "PartsWorks",
    oeNumbers: fields.oeNumbers ?? [],
    fitment: (fields.fits ?? []).map((line) => {
      const parsed = parseFitmentLine(line);
      if (!parsed.ok) throw new Error(parsed.message);
      return parsed.row;
    }),
  });
  return { id: doc._id.toString(), name: doc.name, partNumber: doc.partNumber };
}

async function choose(page: Page, label: "Make" | "Model" | "Year", option: string, javaScriptEnabled: boolean) {
  const picker = page.getByRole("form", { name: "Shop by vehicle" });
  await picker.getByLabel(label).selectOption(option);
  // Without JavaScript the choice is sent with the button; with it, at once.
  if (!javaScriptEnabled) await picker.getByRole("button", { name: "Find parts" }).click();
}

const cardNames = (page: Page) => page.getByRole("list", { name: "Parts" }).getByRole("heading", { level: 2 });

test("three choices find the parts that fit, the vehicle is remembered, and the part page says it fits", async ({
  page,
  login,
  checkA11y,
  javaScriptEnabled,
  db: _db,
}) => {
  const word = `Fit${token()}`;
  const pads = await addPart({ name: `${word} Brake Pads`, category: "brakes", fits: ["Volvo V60 2010-2018"] });
  const disc = await addPart({
    name: `${word} Brake Disc`,
    category: "brakes",
    fits: ["Volvo V60 2019-2025", "Volvo XC60 2008-2017"],
  });
  const bulb = await addPart({ name: `${word} Bulb`, category: "lighting", fits: ["Volvo V60 2014-2016 D4"] });

  await page.goto(`/parts?q=${word}`);
  await expect(cardNames(page)).toHaveCount(3);
  const picker = page.getByRole("form", { name: "Shop by vehicle" });
  await expect(picker.getByLabel("Model")).toBeDisabled();
  // A visitor's page has no framework; its script refines in place (the marker would not survive a load).
  if (javaScriptEnabled) {
    expect(await page.evaluate(() => "__remixContext" in window)).toBe(false);
    await page.evaluate(() => Object.assign(window, { stayedOnPage: true }));
  }

  await choose(page, "Make", "Volvo", javaScriptEnabled);
  await expect(page).toHaveURL(new RegExp(`/parts\\?q=${word}&make=Volvo`));
  await expect(cardNames(page)).toHaveCount(3);
  await choose(page, "Model", "V60", javaScriptEnabled);
  await expect(page).toHaveURL(/make=Volvo&model=V60/);
  await choose(page, "Year", "2015", javaScriptEnabled);
  await expect(page).toHaveURL(new RegExp(`/parts\\?q=${word}&make=Volvo&model=V60&year=2015$`));

  await expect(cardNames(page)).toHaveText([bulb.name, pads.name]);
  const cards = page.getByRole("list", { name: "Parts" }).getByRole("listitem");
  await expect(cards.getByTestId("fits")).toHaveText(
    ["Fits your 2015 Volvo V60", "Fits your 2015 Volvo V60"].map((t) => `✓ ${t}`),
  );
  await expect(page.getByTestId("active-filters")).toContainText("Fits 2015 Volvo V60");
  await expect(picker.getByLabel("Year")).toHaveValue("2015");
  await expect(page).toHaveTitle(`Parts matching “${word}” — PartsWorks`);
  if (javaScriptEnabled) {
    await expect(picker.getByLabel("Year")).toBeFocused();
    expect(await page.evaluate(() => "stayedOnPage" in window)).toBe(true);
  }
  await checkA11y();

  // The back button goes one choice back.
  await page.goBack();
  await expect(page).toHaveURL(/make=Volvo&model=V60(&year=)?$/);
  await expect(cardNames(page)).toHaveCount(3);

  // Remembered: the whole list again, with the parts that fit marked.
  await page.goto(`/parts?q=${word}`);
  await expect(page.getByTestId("remembered-vehicle")).toContainText("Your vehicle: 2015 Volvo V60");
  await expect(cards.filter({ hasText: pads.name }).getByTestId("fits")).toHaveText("✓ Fits your 2015 Volvo V60");
  await expect(cards.filter({ hasText: disc.name }).getByTestId("fits")).toHaveCount(0);

  await login();
  await page.goto(`/parts/${pads.id}`);
  await expect(page.getByTestId("fits")).toHaveText("✓ Fits your 2015 Volvo V60");
  await expect(page.getByRole("list", { name: "Fits these vehicles" })).toHaveText("Volvo V60 2010-2018");
  await page.goto(`/parts/${disc.id}`);
  await expect(page.getByTestId("fits")).toHaveText("Not listed for your 2015 Volvo V60: check the vehicles below.");

  await page.goto(`/parts?q=${word}`);
  await page.getByRole("button", { name: "Forget this vehicle" }).click();
  await expect(page).toHaveURL(/\/parts$/);
  await expect(page.getByTestId("remembered-vehicle")).toHaveCount(0);
});

test("filters show their counts, narrow together in the URL, and an empty result offers to clear them", async ({
  page,
  checkA11y,
  db: _db,
}) => {
  const word = `Flt${token()}`;
  const brand = `Brand${token()}`;
  await addPart({ name: `${word} Pads`, category: "brakes", brand });
  await addPart({ name: `${word} Disc`, category: "brakes", brand: "Nordwerk", availableQuantity: 0 });
  await addPart({ name: `${word} Filter`, category: "filters", brand });

  await page.goto(`/parts?q=${word}`);
  const filters = page.getByRole("complementary", { name: "Filters" });
  const categories = filters.getByRole("navigation", { name: "Category" });
  await expect(categories.getByRole("link", { name: "All categories" })).toHaveAttribute("aria-current", "true");
  await expect(categories.getByRole("link")).toHaveText(["All categories", "Brakes (2)", "Filters (1)"]);

  await categories.getByRole("link", { name: /^Brakes/ }).click();
  await expect(page).toHaveURL(new RegExp(`/parts\\?q=${word}&category=brakes$`));
  await expect(cardNames(page)).toHaveText([`${word} Disc`, `${word} Pads`]);
  // Other categories stay reachable, and the brands count within brakes.
  await expect(categories.getByRole("link", { name: /^Filters/ })).toBeVisible();
  const brands = filters.getByRole("navigation", { name: "Brand" });
  await expect(brands.getByRole("link", { name: new RegExp(`^${brand}`) })).toHaveText(`${brand} (1)`);

  await filters.getByRole("link", { name: /^In stock only/ }).click();
  await expect(page).toHaveURL(new RegExp(`category=brakes&stock=in$`));
  await expect(cardNames(page)).toHaveText([`${word} Pads`]);
  await checkA11y();

  // A combination with nothing in it: a 200 that says so and offers the way out.
  await page.goto(`/parts?q=${word}&category=brakes&stock=in&brand=Nordwerk`);
  const empty = page.getByTestId("empty-state");
  await expect(empty).toContainText(`No parts match “${word}”`);
  await empty.getByRole("link", { name: `search all parts for “${word}”` }).click();
  await expect(page).toHaveURL(new RegExp(`/parts\\?q=${word}$`));
  await expect(cardNames(page)).toHaveCount(3);

  await page.goto(`/parts?q=${word}&category=brakes`);
  await page.getByTestId("active-filters").getByRole("link", { name: "Clear all filters" }).click();
  await expect(page).toHaveURL(new RegExp(`/parts\\?q=${word}$`));

  // Bad parameters: a clear message and a way back, never a server error.
  for (const search of ["category=spaceships", "make=Volkswagen&model=Golf&year=99999", `q=${"x".repeat(5000)}`]) {
    const response = await page.goto(`/parts?${search}`);
    expect(response?.status(), search).toBe(400);
    await expect(page.getByTestId("search-errors").getByRole("link", { name: "Clear all filters" })).toHaveAttribute(
      "href",
      "/parts",
    );
  }
});

test("a part number typed with spaces or an OE number goes straight to the part, which carries Product JSON-LD", async ({
  page,
  login,
  db: _db,
}) => {
  const part = await addPart({
    name: `Invoice Pads ${token()}`,
    partNumber: `IV-${token().toUpperCase()}`,
    brand: "Nordwerk",
    category: "brakes",
    oeNumbers: [`7X${token().toUpperCase()} 615`],
  });
  await login();
  await page.goto("/parts");
  const search = page.getByRole("search", { name: "Search parts" });
  await search.getByLabel("Search by name or part number").fill(part.partNumber.replace("-", " ").toLowerCase());
  await search.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(new RegExp(`/parts/${part.id}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(part.name);

  const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}");
  expect(ld).toMatchObject({
    "@context": "https://schema.org",
    "@type": "Product",
    name: part.name,
    sku: part.partNumber,
    brand: { "@type": "Brand", name: "Nordwerk" },
    offers: { "@type": "Offer", price: "24.00", priceCurrency: "USD", availability: "https://schema.org/InStock" },
  });

  const oe = (await Part.findById(part.id).lean())!.oeNumbers[0];
  await page.goto(`/parts?q=${encodeURIComponent(oe.replace(" ", ""))}`);
  await expect(page).toHaveURL(new RegExp(`/parts/${part.id}$`));
});

test("a filtered list names its canonical URL without sort or cursors", async ({ page, baseURL }) => {
  await page.goto("/parts?sort=price-asc&make=Volkswagen&category=brakes");
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
    "href",
    `${baseURL}/parts?category=brakes&make=Volkswagen`,
  );
});
