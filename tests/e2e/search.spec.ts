import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { Part } from "~/models/part.server";
import { parseFitmentLine } from "~/domain/catalogue";
import { expect, test } from "./fixtures";

/**
 * Searching as buyers type: a vehicle named in the text narrows the list (and the page says so,
 * with a link that searches without it), and a search that finds nothing offers what it might
 * have meant, as links; with JavaScript on and off (plain GET forms and links either way).
 */

test.describe.configure({ timeout: 60_000 });

/** A word of letters only, new to the catalogue. */
const word = () =>
  randomUUID()
    .replace(/-/g, "")
    .slice(0, 8)
    .replace(/\d/g, (digit) => "ghijklmnop"[Number(digit)]);

async function addPart(name: string, fits: string[]) {
  const doc = await Part.create({
    name,
    partNumber: `SE-${randomUUID().slice(0, 8).toUpperCase()}`,
    description: "A part made for a search test.",
    img: "/images/parts/pw-1001.svg",
    priceCents: 2400,
    minOrderQuantity: 100,
    availableQuantity: 1000,
    category: "wipers",
    fitment: fits.map((line) => {
      const parsed = parseFitmentLine(line);
      if (!parsed.ok) throw new Error(parsed.message);
      return parsed.row;
    }),
  });
  return { id: doc._id.toString(), name: doc.name };
}

const cardNames = (page: Page) => page.getByRole("list", { name: "Parts" }).getByRole("heading", { level: 2 });

async function searchFor(page: Page, text: string) {
  await page.getByLabel("Search by name or part number").fill(text);
  await page.getByRole("button", { name: "Search", exact: true }).click();
}

test("a vehicle named in the search narrows to the parts that fit it, says so, and can be searched without", async ({
  page,
  checkA11y,
  db: _db,
}) => {
  const name = word();
  const fits = await addPart(`${name} Wiper Blade`, ["Nissan Qashqai 2014-2020"]);
  const other = await addPart(`${name} Wiper Blade Long`, ["Kia Ceed 2012-2018"]);

  await page.goto("/parts");
  await searchFor(page, `qashqai ${name} wipers`);
  await expect(page).toHaveURL(new RegExp(`/parts\\?q=qashqai\\+${name}\\+wipers`));
  await expect(page.getByTestId("typed-vehicle")).toContainText("Showing parts that fit Nissan Qashqai");
  await expect(cardNames(page)).toHaveText([fits.name]);
  await checkA11y();

  await page.getByRole("link", { name: `Search all parts for “${name} wipers”` }).click();
  await expect(page).toHaveURL(new RegExp(`/parts\\?q=${name}\\+wipers$`));
  await expect(page.getByTestId("typed-vehicle")).toHaveCount(0);
  await expect(cardNames(page)).toHaveText([other.name, fits.name]);
});

test("a search that finds nothing offers what it may have meant, as links that find it", async ({
  page,
  checkA11y,
  db: _db,
}) => {
  const [first, second] = [word(), word()];
  const wiper = await addPart(`${first} Wiper Blade`, []);
  await addPart(`${second} Wiper Arm`, []);

  await page.goto("/parts");
  // Both words are in the catalogue, never together: each alone is offered.
  await searchFor(page, `${first} ${second}`);
  await expect(page.getByTestId("empty-state")).toContainText(`No parts match “${first} ${second}”`);
  const offered = page.getByTestId("did-you-mean").getByRole("link");
  await expect(offered).toHaveText([first, second]);
  await checkA11y();

  await offered.filter({ hasText: first }).click();
  await expect(page).toHaveURL(new RegExp(`/parts\\?q=${first}$`));
  await expect(cardNames(page)).toHaveText([wiper.name]);
});
