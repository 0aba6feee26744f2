import type { Page } from "@playwright/test";
import { Types } from "mongoose";
import { Audit, insertAuditEntry } from "~/models/audit.server";
import { Order } from "~/orders/model/schema.server";
import { Part, toPartView } from "~/models/part.server";
import { User, toUserView } from "~/models/user.server";
import { createUser, sessionCookieValue } from "../setup/factories";
import { createOrder } from "../setup/order-factories";
import { expect, test } from "./fixtures";

/**
 * Visual regression: the main screens at desktop and phone width, compared with the baselines in
 * tests/e2e/__screenshots__ (`npm test e2e -- screenshots --update-snapshots` rewrites them after
 * an intended change; review the new PNGs like code). On CI a missing baseline fails the test.
 *
 * Deterministic on purpose: fixed parts and a fixed customer whose orders are recreated with frozen
 * dates; what other tests add at the same time (the newest parts on the home page, the footer's
 * year) is masked or kept out of the picture. Pages look alike with and without JavaScript, so
 * the screenshots are taken once, in the js-on project.
 */
const SIZES = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 360, height: 740 },
} as const;
type Size = keyof typeof SIZES;

// In the future, so that these orders stay first in newest-first lists that other tests add to.
const FROZEN = new Date("2030-01-15T09:30:00Z");
const PARTS = [
  { partNumber: "SHOT-1001", name: "Shotwell Ceramic Brake Pads", img: "/images/parts/pw-1001.svg", priceCents: 1200 },
  { partNumber: "SHOT-1002", name: "Shotwell Oil Filter", img: "/images/parts/pw-1002.svg", priceCents: 400 },
  { partNumber: "SHOT-1003", name: "Shotwell Spark Plug Set", img: "/images/parts/pw-1003.svg", priceCents: 900 },
];

// One baseline per screen, taken with JavaScript on: every group is tagged @js-on.
// The tests share the fixed customer, whose orders each one replaces: they run in order, in one worker.
test.describe.configure({ mode: "default" });

/** The fixed parts, created once per database. */
async function fixedParts() {
  const parts = [];
  for (const fields of PARTS) {
    // Created through the model, which derives the search keys; a parallel test may have made it first.
    const doc =
      (await Part.findOne({ partNumber: fields.partNumber }).lean()) ??
      (await Part.create({
        ...fields,
        description: "Made for the screenshots: a part whose every detail stays the same from run to run.",
        minOrderQuantity: 100,
        availableQuantity: 5000,
      }).then(
        (created) => created.toObject(),
        () => Part.findOne({ partNumber: fields.partNumber }).lean(),
      ));
    parts.push(toPartView(doc!));
  }
  return parts;
}

/** A fixed customer (created once per database) whose orders are deleted. */
async function fixedCustomer(name: string, email: string) {
  const existing = await User.findOne({ email }).lean();
  // The desktop and phone tests may create it at the same moment: the loser reads the winner's.
  const customer = existing
    ? toUserView(existing)
    : await createUser({ name, email }).catch(async (error: unknown) => {
        if ((error as { code?: number }).code !== 11000) throw error;
        return toUserView((await User.findOne({ email }).lean())!);
      });
  await Order.deleteMany({ userId: customer.id });
  return customer;
}

/** Dates that never change: the orders' placing (and payment) at FROZEN. */
async function freeze(orderIds: string[]) {
  // Straight to the collection: the model keeps createdAt from ever changing.
  await Order.collection.updateMany(
    { _id: { $in: orderIds.map((id) => new Types.ObjectId(id)) } },
    { $set: { createdAt: FROZEN, updatedAt: FROZEN } },
  );
}

/** The fixed parts and the fixed customer with two fresh orders. */
async function fixedShop() {
  const parts = await fixedParts();
  const email = "sam.shotwell@example.com";
  const customer = await fixedCustomer("Sam Shotwell", email);
  // A colleague in the same company, so the header and the menu always name Sam's role (Owner).
  if (!(await User.exists({ email: "lee.shotwell@example.com" })))
    await createUser({
      name: "Lee Shotwell",
      email: "lee.shotwell@example.com",
      company: { id: customer.companyId!, role: "buyer" },
    }).catch((error: unknown) => {
      if ((error as { code?: number }).code !== 11000) throw error;
    });
  const unpaid = await createOrder({ user: customer, part: parts[0], quantity: 150 });
  const paid = await createOrder({
    user: customer,
    part: parts[1],
    quantity: 300,
    status: "paid",
    transactionId: "pi_shotwell0000000001",
  });
  await freeze([unpaid.id, paid.id]);
  await Order.collection.updateOne({ _id: new Types.ObjectId(paid.id) }, { $set: { paidAt: FROZEN } });
  return { parts, customer, unpaid };
}

/**
 * Order numbers are new on every run (one counter for the whole suite): each SO-number on the page
 * reads SO-100000, the same width every time, so the layout and the pixels stay still.
 */
async function steadyOrderNumbers(page: Page) {
  // Only once React has hydrated the whole page (the footer is last): text changed before that is a
  // mismatch, and React renders the page again from scratch.
  await page.waitForFunction(() => {
    const footer = document.querySelector("footer");
    const hydrates = "__remixContext" in window;
    return !hydrates || (footer !== null && Object.keys(footer).some((key) => key.startsWith("__reactFiber$")));
  });
  await page.evaluate(() => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (/SO-\d{6,}/.test(node.textContent ?? ""))
        node.textContent = node.textContent!.replace(/SO-\d{6,}/g, "SO-100000");
    }
  });
}

async function signIn(page: Page, userId: string, baseURL: string) {
  const { value } = await sessionCookieValue(userId);
  await page.context().addCookies([{ name: "__session", value, url: baseURL }]);
}

for (const size of Object.keys(SIZES) as Size[]) {
  test.describe(`${size}`, { tag: "@js-on" }, () => {
    test.use({ viewport: SIZES[size] });

    test(`home (${size})`, async ({ page, db: _db }) => {
      await page.goto("/");
      await expect(page).toHaveScreenshot(`home-${size}.png`, {
        mask: [page.getByRole("list", { name: "Newest parts" })],
      });
    });

    test(`parts search (${size})`, async ({ page, db: _db }) => {
      await fixedShop();
      await page.goto("/parts?q=Shotwell");
      await expect(page.getByTestId("results-summary")).toHaveText(/of 3 parts/);
      await expect(page).toHaveScreenshot(`parts-${size}.png`);
    });

    test(`part page, signed in (${size})`, async ({ page, baseURL, db: _db }) => {
      const { parts, customer } = await fixedShop();
      await signIn(page, customer.id, baseURL!);
      await page.goto(`/parts/${parts[2].id}`);
      await expect(page).toHaveScreenshot(`part-page-${size}.png`);
    });

    test(`My Orders (${size})`, async ({ page, baseURL, db: _db }) => {
      const { customer } = await fixedShop();
      await signIn(page, customer.id, baseURL!);
      await page.goto("/dashboard/orders");
      await steadyOrderNumbers(page);
      await expect(page).toHaveScreenshot(`my-orders-${size}.png`, {
        fullPage: true,
        mask: [page.locator("footer")],
      });
    });
  });
}

for (const size of Object.keys(SIZES) as Size[]) {
  test.describe(`${size}, admin`, { tag: "@js-on" }, () => {
    test.use({ viewport: SIZES[size] });

    test(`Edit Product with two fitment errors (${size})`, async ({ page, login, db: _db }) => {
      const [part] = await fixedParts();
      await login({ role: "admin" });
      await page.goto(`/dashboard/manageProducts/${part.id}/edit`);
      await page.getByLabel(/^Fits these vehicles/).fill("Nosuchmake Car 2015\nVolkswagen Golf 1890");
      await page.getByRole("button", { name: "Save Product" }).click();
      const form = page.locator(`#edit-product-${part.id}`);
      await expect(form.getByText(/^Line 2:/)).toBeVisible();
      await expect(form).toHaveScreenshot(`edit-product-${size}.png`);
    });

    test(`Audit Log entries in people's words (${size})`, async ({ page, login, db: _db }) => {
      const [part] = await fixedParts();
      const customer = await fixedCustomer("Sam Shotwell", "sam.shotwell@example.com");
      const actor = "audit.clerk@example.com";
      const clerk =
        (await User.findOne({ email: actor })
          .lean()
          .then((doc) => doc && toUserView(doc))) ??
        (await createUser({ name: "Avery Auditor", email: actor, role: "admin" }).catch(async () =>
          toUserView((await User.findOne({ email: actor }).lean())!),
        ));
      await Audit.deleteMany({ actorEmail: actor });
      const entry = { actorId: clerk.id, actorEmail: actor, ip: "192.0.2.10", expiresAt: new Date("2031-01-01") };
      await insertAuditEntry({
        ...entry,
        at: FROZEN,
        action: "part.update",
        targetType: "part",
        targetId: part.id,
        targetLabel: part.name,
        before: { partNumber: part.partNumber, priceCents: 1200, availableQuantity: 5000, minOrderQuantity: 100 },
        after: { partNumber: part.partNumber, priceCents: 1450, availableQuantity: 12500, minOrderQuantity: 100 },
      });
      await insertAuditEntry({
        ...entry,
        at: new Date(FROZEN.getTime() + 60_000),
        action: "user.make-admin",
        targetType: "user",
        targetId: customer.id,
        before: { role: "customer" },
        after: { role: "admin" },
      });
      await login({ role: "admin" });
      await page.goto(`/dashboard/audit?actor=${encodeURIComponent(actor)}`);
      await expect(page.getByTestId("audit-row")).toHaveCount(2);
      await expect(page.locator(".data-table")).toHaveScreenshot(`audit-${size}.png`);
    });
  });
}

test.describe("phone", { tag: "@js-on" }, () => {
  test.use({ viewport: SIZES.phone });

  test("an order's card on Manage Orders (phone)", async ({ page, login, db: _db }) => {
    const { unpaid } = await fixedShop();
    await login({ role: "admin" });
    await page.goto("/dashboard/manageOrders?status=unpaid");
    await steadyOrderNumbers(page);
    await expect(page.getByTestId(`order-${unpaid.id}`)).toHaveScreenshot("manage-orders-card-phone.png");
  });

  test("an order of two lines and its pro-forma invoice (phone)", async ({ page, baseURL, db: _db }) => {
    // A customer of its own, so the other screenshots' orders never change under this one.
    const parts = await fixedParts();
    const customer = await fixedCustomer("Pat Shotwell", "pat.shotwell@example.com");
    const order = await createOrder({
      user: customer,
      lines: [
        { part: parts[0], quantity: 150 },
        { part: parts[2], quantity: 200 },
      ],
    });
    await freeze([order.id]);
    await signIn(page, customer.id, baseURL!);

    await page.goto(`/dashboard/orders/${order.id}`);
    await expect(page.getByTestId("order-lines")).toHaveScreenshot("order-lines-phone.png");

    await page.goto(`/documents/${order.id}/pro-forma`);
    await steadyOrderNumbers(page);
    await expect(page).toHaveScreenshot("pro-forma-phone.png", {
      fullPage: true,
      mask: [page.locator("footer").last()],
    });
  });
});
