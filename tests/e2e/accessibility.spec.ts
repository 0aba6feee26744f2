import type { Browser } from "@playwright/test";
import mongoose from "mongoose";
import { formatRmaNumber } from "~/domain/returns";
import { insertAuditEntry } from "~/models/audit.server";
import { createInvitation } from "~/models/invitation.server";
import { createUser, sessionCookieValue } from "../setup/factories";
import { createOrder } from "../setup/order-factories";
import { axeViolations, expect, pagesByRole, preloadAxe, test } from "./fixtures";
import { layoutProblems } from "./layout";
import { screenLabel, screenPath, screensFor, walkData, type Role } from "./screens";

/**
 * Every screen each role can reach, with the demo's own data (lists long enough to scroll, an order
 * of each state, a statement with overdue lines), checked by axe-core against the WCAG 2.0, 2.1 and
 * 2.2 A and AA rules at a desktop's width and a 360 px phone's. Each role is its demo login (the
 * trade company's owner, buyer and accounts member included), on one page kept for the worker; each
 * screen is loaded once and checked at both widths. A screen the same for several roles is checked
 * for the one the demo gives most content (the trade owner's Company, API keys and Webhooks), and a
 * page made of the same component as one checked once (the confirmation pages for no JavaScript,
 * the mailed links' error pages).
 *
 * At 360 px the rules whose answer depends on the layout (sizes and spacing of targets, boxes that
 * scroll) run on every screen, and every rule only on the screens marked `phoneLayout`: the markup,
 * names and colours are the same at every width (a phone's table cards are white, as the page), so
 * what a phone adds is the layout's own controls (the menu, the dashboard's drawer button, the
 * catalogue's filters), checked there. Colour contrast alone is about half of axe's time.
 *
 * At 360 px each screen must also fit the phone (tests/e2e/layout.ts): phone.spec.ts checks that
 * without JavaScript on its own data, this file with JavaScript on the demo's.
 *
 * In the JavaScript-on project only (tagged @js-on): axe runs in the page, and without JavaScript the
 * screens are the same server-rendered markup (the journeys' checkA11y covers that project on the
 * screens they use). The screens are tests/e2e/screens.ts's, shared with phone.spec.ts: a new screen
 * is one line there.
 */
const ROLES: Role[] = ["visitor", "customer", "owner", "buyer", "accounts", "admin"];

const DEMO_LOGINS: Record<Exclude<Role, "visitor">, string> = {
  customer: "customer@partsworks.test",
  owner: "trade@partsworks.test",
  buyer: "buyer@partsworks.test",
  accounts: "accounts@partsworks.test",
  admin: "admin@partsworks.test",
};

// The narrowest desktop (Tailwind's lg and up): where the tables are tightest.
const DESKTOP = { width: 1024, height: 768 };
const PHONE = { width: 360, height: 740 };
const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
/** The WCAG rules of axe-core whose answer changes with the width: target size and spacing, regions that scroll. */
const LAYOUT_RULES = ["target-size", "scrollable-region-focusable"];

/** The demo records the screens show, found by what the demo gives them (logins, PO numbers, part numbers). */
async function demoData() {
  const db = mongoose.connection.db!;
  const userId = async (email: string) => {
    const user = await db.collection("users").findOne({ email });
    if (!user) throw new Error(`No demo user ${email}: the suite's shop seeds the demo data`);
    return String(user._id);
  };
  const orderId = async (filter: Record<string, unknown>) => {
    const order = await db.collection("orders").findOne(filter, { sort: { createdAt: 1 } });
    if (!order) throw new Error(`No demo order like ${JSON.stringify(filter)}`);
    return String(order._id);
  };
  const casey = DEMO_LOGINS.customer;
  const ownerId = await userId(DEMO_LOGINS.owner);
  const owner = await db.collection("users").findOne({ email: DEMO_LOGINS.owner });
  const part = await db.collection("parts").findOne({ partNumber: "PW-1001" });
  // Ended by the shop or by its hold: states the demo never reaches on its own.
  const stranger = await createUser({ name: "Morgan Ended-Orders" });
  const removed = await createOrder({ user: stranger, status: "removed" });
  const expired = await createOrder({ user: stranger, status: "expired" });
  // An audit entry of the long kind (an address, an IPv6 peer, a path without spaces): the log's table is wider than its place.
  await insertAuditEntry({
    at: new Date(),
    action: "part.update",
    actorEmail: `procurement.department.${Date.now()}@northern-fleet-maintenance-services.example.com`,
    ip: "2001:0db8:85a3:0000:0000:8a2e:0370:7334",
    targetType: "part",
    targetId: String(part!._id),
    targetLabel: String(part!.name),
    before: { img: "/images/parts/pw-1001.svg", availableQuantity: 4200 },
    after: {
      img: "/avatars/uploaded-product-photography-front-three-quarter-view-high-resolution.webp",
      availableQuantity: 4150,
    },
    expiresAt: new Date(Date.now() + 24 * 60 * 60 * 1000),
  });
  const invitationToken = await createInvitation({
    companyId: String(owner!.companyId),
    email: `invited-${Date.now()}@example.com`,
    role: "buyer",
    invitedBy: ownerId,
    ttlMs: 60 * 60 * 1000,
  });
  // The demo's received return on Casey's order: its RMA document.
  const returned = await db
    .collection("orders")
    .findOne({ userEmail: casey, "returns.status": "received" }, { projection: { returns: 1 } });
  const rmaNumber = (returned?.returns as { status: string; number?: number }[] | undefined)?.find(
    (entry) => entry.status === "received",
  )?.number;
  if (!returned || !rmaNumber) throw new Error("The demo has no received return on Casey's order");
  return walkData("The accessibility walk", {
    rmaOrderId: String(returned._id),
    rmaNumber: formatRmaNumber(rmaNumber),
    ownerId,
    customerId: await userId(casey),
    companyId: String(owner!.companyId),
    partId: String(part!._id),
    invitationToken,
    listId: String((await db.collection("saved_lists").findOne({ name: "Monthly workshop restock" }))?._id),
    quoteId: await db
      .collection("quotes")
      .findOne({ status: { $in: ["requested", "revision", "quoted"] } }, { sort: { _id: 1 } })
      .then((quote) => (quote ? String(quote._id) : undefined)),
    acceptedQuoteId: String(
      (await db.collection("quotes").findOne({ userEmail: "trade@partsworks.test", status: "accepted" }))?._id,
    ),
    orders: {
      approval: await orderId({ poNumber: "NFG-4450" }),
      // The demo's unpaid order, or one like it when a file before this one paid or ended it.
      unpaid: await orderId({ userEmail: casey, status: "unpaid" }).catch(async () => {
        const user = await db.collection("users").findOne({ email: casey });
        const order = await createOrder({ user: { id: String(user!._id), email: casey, name: String(user!.name) } });
        return order.id;
      }),
      "part-paid": await orderId({ poNumber: "NFG-4432" }),
      "on-account": await orderId({ poNumber: "NFG-4451" }),
      overdue: await orderId({ poNumber: "NFG-4398" }),
      pending: await orderId({ userEmail: casey, status: "paid", "shipments.0": { $exists: false } }),
      "part-shipped": await orderId({ userEmail: casey, status: "paid", "shipments.0": { $exists: true } }),
      shipped: await orderId({ userEmail: casey, status: "shipped" }),
      cancelled: await orderId({ userEmail: casey, status: "cancelled" }),
      removed: removed.id,
      expired: expired.id,
    },
  });
}

/** The demo data and a page per role, made once per worker. */
async function makeScreens(
  browser: Browser,
  baseURL: string | undefined,
  onTeardown: (close: () => Promise<void>) => void,
) {
  const data = await demoData();
  const open = async (role: Role) => {
    const context = await browser.newContext({ viewport: DESKTOP, baseURL });
    await preloadAxe(context);
    if (role !== "visitor") {
      const user = await mongoose.connection.db!.collection("users").findOne({ email: DEMO_LOGINS[role] });
      const { value } = await sessionCookieValue(String(user!._id));
      await context.addCookies([{ name: "__session", value, url: baseURL! }]);
    }
    return context.newPage();
  };
  return { data, pageFor: pagesByRole(open, onTeardown) };
}

for (const screen of screensFor("accessibility", ROLES)) {
  const label = screenLabel(screen);
  const title = `${label} (${screen.role}): axe finds no WCAG A or AA violation at desktop and 360 px, and it fits a phone`;
  test(title, { tag: "@js-on" }, async ({ browser, baseURL, perWorker, db: _db }) => {
    const screens = await perWorker("accessibility screens", (onTeardown) => makeScreens(browser, baseURL, onTeardown));
    const page = await screens.pageFor(screen.role);
    const path = screenPath(screen, screens.data);
    await page.setViewportSize(DESKTOP);
    const response = await page.goto(path);
    // The screen itself, not an error page standing in for it (unless the error page is the screen).
    if (!screen.error) expect(response?.status(), `${path} answers`).toBeLessThan(400);
    const desktop = await axeViolations(page, { tags: WCAG_TAGS });
    await page.setViewportSize(PHONE);
    const phone = await axeViolations(page, screen.phoneLayout ? { tags: WCAG_TAGS } : { rules: LAYOUT_RULES });
    expect({ desktop, phone }).toEqual({ desktop: [], phone: [] });
    // What phone.spec.ts checks of each screen without JavaScript, here with it and the demo's data.
    expect(await layoutProblems(page)).toEqual([]);
  });
}
