import type { Browser } from "@playwright/test";
import { insertAuditEntry } from "~/models/audit.server";
import { Review } from "~/models/review.server";
import { createPart, createUser, sessionCookieValue } from "../setup/factories";
import { createOrder } from "../setup/order-factories";
import { expect, pagesByRole, test } from "./fixtures";
import { layoutProblems } from "./layout";
import { screenLabel, screenPath, screensFor, walkData } from "./screens";

/**
 * Every screen on a 360 px phone, as a visitor, a customer and an admin: the page never scrolls
 * sideways, every control is inside the screen, and buttons, fields and button-like links are at
 * least 44 px tall (tests/e2e/layout.ts). The walk runs without JavaScript (tagged @js-off), on data
 * made to be long (names, emails); with JavaScript accessibility.spec.ts checks the same of every
 * screen, for every role, on the demo's data. The other tests here run in both projects.
 *
 * The screens are tests/e2e/screens.ts's, shared with accessibility.spec.ts: a new screen is one line
 * there. `optional` screens come from work that may not be in this build yet: they are skipped, saying
 * so, while their route answers 404.
 */
const ROLES = ["visitor", "customer", "admin"] as const;
type Role = (typeof ROLES)[number];

const PHONE = { width: 360, height: 740 };

test.use({ viewport: PHONE });

/**
 * The screens' data and a page per role, made once per worker: each screen is its own test, but a
 * new browser context and seven documents for each of 57 screens was most of this file's time.
 */
async function makeScreens(
  browser: Browser,
  { baseURL, javaScriptEnabled }: { baseURL?: string; javaScriptEnabled?: boolean },
  onTeardown: (close: () => Promise<void>) => void,
) {
  const part = await createPart({ name: "Heavy Duty Ceramic Brake Pad Set for Commercial Vans and Light Trucks" });
  const second = await createPart({ name: "Long-Life Synthetic Transmission Fluid, 20 Litre Drum" });
  // A long name and email, the kind that used to widen tables.
  const owner = await createUser({
    name: "Maximiliana Featherstonehaugh-Worthington",
    email: `procurement.department.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@northern-fleet-maintenance-services.example.com`,
  });
  // An order of two lines (lists fold them under "All 2 lines"), and a paid one.
  const order = await createOrder({
    user: owner,
    lines: [
      { part, quantity: 100 },
      { part: second, quantity: 250 },
    ],
  });
  const paidOrder = await createOrder({ user: owner, part, status: "paid" });
  const review = await Review.create({
    userId: owner.id,
    userName: owner.name,
    email: owner.email,
    rating: 4,
    description: "Arrived on a pallet, well packed, and every one of the pads fitted our fleet's vans.",
  });
  const data = walkData("The phone walk", {
    partId: part.id,
    customerId: owner.id,
    reviewId: review.id,
    orders: { unpaid: order.id, pending: paidOrder.id },
  });

  const open = async (role: Role) => {
    const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled, baseURL });
    const user = role === "customer" ? owner : role === "admin" ? await createUser({ role: "admin" }) : null;
    if (user) {
      const { value } = await sessionCookieValue(user.id);
      await context.addCookies([{ name: "__session", value, url: baseURL! }]);
    }
    return context.newPage();
  };
  return { data, pageFor: pagesByRole(open, onTeardown) };
}

for (const screen of screensFor("phone", ROLES)) {
  const label = screenLabel(screen);
  test(
    `${label} fits a 360 px phone (${screen.role})`,
    { tag: "@js-off" },
    async ({ browser, perWorker, db: _db }, testInfo) => {
      const screens = await perWorker("phone screens", (onTeardown) =>
        makeScreens(browser, testInfo.project.use, onTeardown),
      );
      const page = await screens.pageFor(screen.role);
      const path = screenPath(screen, screens.data);
      const response = await page.goto(path);
      if (screen.optional && response?.status() === 404) {
        test.skip(true, `${path} answers 404: not in this build yet`);
      }
      // The screen itself, not an error page standing in for it (unless the error page is the screen).
      if (!screen.error) expect(response?.status(), `${path} answers`).toBeLessThan(400);
      expect(await layoutProblems(page)).toEqual([]);
    },
  );
}

test("the menus open on a phone, fit the screen and lead on, with and without JavaScript", async ({ page, login }) => {
  await login({ role: "admin" });
  await page.goto("/dashboard");

  // The site menu (a <details>).
  await page.getByText("Menu", { exact: true }).click();
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Parts" }).last(),
  ).toBeVisible();
  expect(await layoutProblems(page)).toEqual([]);
  await page.getByText("Menu", { exact: true }).click();

  // The dashboard drawer (a checkbox and its label: no JavaScript needed).
  const drawer = page.getByRole("navigation", { name: "Dashboard" });
  await expect(drawer).toBeHidden();
  await page.getByText("Dashboard menu").click();
  await expect(drawer).toBeVisible();
  expect(await layoutProblems(page)).toEqual([]);
  await drawer.getByRole("link", { name: "Manage Orders" }).click();
  await expect(page).toHaveURL(/\/dashboard\/manageOrders$/);
  await expect(page.getByRole("heading", { name: "Manage Orders" })).toBeVisible();
  // After a client-side navigation the drawer closes itself; a new page starts closed.
  await expect(drawer).toBeHidden();
});

test("Manage Orders on a phone: every column and the actions of an order are on its card", async ({
  page,
  login,
  createPart,
}) => {
  const part = await createPart({ name: "Radiator Core for Phone Test" });
  const customer = await createUser({
    name: "Casey Phone",
    email: `casey.phone.${Date.now()}@long-workshop-domain.example.com`,
  });
  const unpaid = await createOrder({ user: customer, part, quantity: 250 });
  await login({ role: "admin" });
  await page.goto("/dashboard/manageOrders?status=unpaid");
  const card = page.getByTestId(`order-${unpaid.id}`);
  for (const text of ["Radiator Core for Phone Test", "Casey Phone", customer.email, "250", "$1,250.00", "Unpaid"]) {
    const cell = card.getByText(text).first();
    await cell.scrollIntoViewIfNeeded();
    await expect(cell).toBeInViewport({ ratio: 1 });
  }
  const remove = card.getByRole("link", { name: /^Remove SO-\d+: Radiator Core/ });
  await remove.scrollIntoViewIfNeeded();
  await expect(remove).toBeInViewport({ ratio: 1 });
});

test("what the admin's screens show after a click fits too: the audit log's entries, the sales table, an import's dry run", async ({
  page,
  login,
  createPart,
}) => {
  const part = await createPart({ name: "Heavy Duty Ceramic Brake Pad Set for Commercial Vans and Light Trucks" });
  await login({ role: "admin" });
  const actor = `procurement.department.${Date.now()}@northern-fleet-maintenance-services.example.com`;
  await insertAuditEntry({
    at: new Date(),
    action: "part.update",
    actorEmail: actor,
    ip: "2001:0db8:85a3:0000:0000:8a2e:0370:7334",
    targetType: "part",
    targetId: part.id,
    targetLabel: part.name,
    before: { name: part.name, stock: 1000 },
    after: { name: `${part.name}, Extra-Long-Life-Compound-Edition`, stock: 1250 },
    expiresAt: new Date(Date.now() + 24 * 60 * 60 * 1000),
  });

  // The audit log, filtered to that entry (so the Clear link shows too).
  await page.goto(`/dashboard/audit?actor=${encodeURIComponent(actor)}`);
  await expect(page.getByTestId("audit-row")).toHaveCount(1);
  expect(await layoutProblems(page)).toEqual([]);

  // Shop Today with the sales of each day opened as a table.
  await page.goto("/dashboard/admin");
  // The first currency's table (the dollars'): "Sales by day…", or "Sales in US dollars by day…" beside others.
  await page.getByText(/^Sales (in US dollars )?by day as a table$/).click();
  await expect(page.getByTestId("sales-row").first()).toBeVisible();
  expect(await layoutProblems(page)).toEqual([]);

  // The import's dry run and its Apply button.
  await page.goto("/dashboard/manageProducts/import");
  await page.getByLabel("CSV file").setInputFiles({
    name: "stock.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`Part number,Stock\r\n${part.partNumber},1250\r\n`),
  });
  await page.getByRole("button", { name: "Check the file (dry run)" }).click();
  await expect(page.getByTestId("dry-run-changes")).toContainText(part.name);
  await expect(page.getByRole("button", { name: "Apply 1 change" })).toBeVisible();
  expect(await layoutProblems(page)).toEqual([]);
});

test("the catalogue on a phone: parts on the first screen, the filters folded behind one control", async ({
  page,
  createPart,
}) => {
  await createPart({ name: "Phone Catalogue Brake Pad" });
  await page.goto("/parts");
  const firstCard = page.getByRole("list", { name: "Parts" }).getByRole("listitem").first();
  const box = await firstCard.boundingBox();
  expect(box?.y, "the first part card's top").toBeLessThan(PHONE.height);

  // The vehicle picker and the lists are behind "Filters"; it opens without JavaScript (a <details>).
  const filters = page.getByTestId("filters-panel");
  await expect(filters.getByRole("group", { name: "Shop by vehicle" })).toBeHidden();
  await expect(filters.locator("summary")).toHaveText(/^Filters\W*$/);
  await filters.locator("summary").click();
  await expect(filters.getByRole("group", { name: "Shop by vehicle" })).toBeVisible();
  await filters.getByRole("navigation", { name: "Category" }).getByRole("link").nth(1).click();
  await expect(page).toHaveURL(/category=/);
  await expect(page.getByTestId("filters-panel").locator("summary")).toContainText("Filters (1 active)");
  expect(await layoutProblems(page)).toEqual([]);
});

test("nothing a visitor types widens the page: a 100-character search, on a phone and a desktop", async ({ page }) => {
  const term = "x".repeat(40) + "brakepadsforvanswithoutanyspacesatall" + "y".repeat(23);
  expect(term).toHaveLength(100);
  await page.goto(`/parts?q=${term}`);
  await expect(page.getByTestId("empty-state")).toContainText(term);
  expect(await layoutProblems(page)).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.reload();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(1280);
});

test("quick order on a phone: after Check the lines the checked lines are in view, each a card with its reason", async ({
  page,
  login,
  createPart,
}) => {
  await login();
  const part = await createPart({ minOrderQuantity: 100 });
  await page.goto("/dashboard/quick-order");
  await page.getByLabel("Part numbers and quantities").fill(`${part.partNumber} 20\nNOPE-404 5`);
  await page.getByRole("button", { name: "Check the lines" }).click();
  await expect(page.getByRole("heading", { name: "Checked lines" })).toBeInViewport();
  const line = page.getByTestId(`pad-line-${part.partNumber}`);
  await expect(line.getByTestId("pad-check")).toHaveText("The minimum order is 100 units");
  await expect(line.getByTestId("pad-check")).toBeInViewport();
  expect(await layoutProblems(page)).toEqual([]);

  // Below the minimum: "Round up to 100" rewrites that line and checks again.
  await line.getByRole("button", { name: /^Round up to 100/ }).click();
  await expect(page.getByTestId(`pad-line-${part.partNumber}`).getByTestId("pad-check")).toHaveText("OK");
  await expect(page.getByLabel("Part numbers and quantities")).toHaveValue(`${part.partNumber} 100\nNOPE-404 5`);
});
