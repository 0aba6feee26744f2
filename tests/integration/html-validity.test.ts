/**
 * Every page the shop serves, as a visitor, each member of the demo's trade company, a customer and
 * an admin would open it, with the demo's own data (lists long enough to page, an order of every
 * state): strict UTF-8 without a NUL byte, one document that ends with `</html>` and nothing after
 * it, and zero errors from the W3C Nu Html Checker. Every route module with a screen must have a
 * line here; a new screen without one fails the last test.
 */
import { formatCreditNoteNumber } from "~/domain/credit-notes";
import { formatRmaNumber } from "~/domain/returns";
import { renderRmaHtml, rmaDocumentFor } from "~/orders/rma-document.server";
import { quoteDocumentFor, renderQuoteHtml } from "~/orders/quote-document.server";
import { readFileSync } from "node:fs";
import mongoose from "mongoose";
import { beforeAll, describe, expect, test } from "vitest";
import { createAccountToken } from "~/models/account-token.server";
import { createInvitation } from "~/models/invitation.server";
import { loadOrderDocument, renderDocumentHtml } from "~/orders/documents.server";
import { unsubscribeToken } from "~/services/unsubscribe.server";
import { sessionCookieHeader } from "../setup/factories";
import { byteProblems, checkHtml, documentEndProblems } from "../setup/vnu";
import { routeModules } from "../setup/route-files";
import { DETROIT } from "../fixtures/addresses";
import { placeOrder } from "~/orders/checkout.server";
import { getUserById } from "~/models/user.server";

const BASE = process.env.SHOP_URL ?? "http://localhost:3000";
const ORIGIN = new URL(BASE).origin;

/** `crawler`: asked by a search engine's crawler, which gets the whole page at once instead of streamed. */
type Page = { route: string; url: string; as?: string; form?: Record<string, string>; crawler?: boolean };

const db = () => mongoose.connection.db!;
const idOf = (doc: { _id: unknown } | null | undefined) => String(doc?._id);

async function userId(email: string) {
  const user = await db().collection("users").findOne({ email });
  if (!user) throw new Error(`the demo has no ${email}`);
  return idOf(user);
}

/** Every page to check, with the demo's ids filled in. */
async function pagesToCheck(): Promise<Page[]> {
  const [admin, customer, owner, buyer, accounts] = await Promise.all(
    ["admin", "customer", "trade", "buyer", "accounts"].map((name) => userId(`${name}@partsworks.test`)),
  );
  const part = await db()
    .collection("parts")
    .findOne({}, { sort: { _id: 1 } });
  const review = await db().collection("reviews").findOne({});
  const tradeOwner = await db().collection("users").findOne({ email: "trade@partsworks.test" });
  const company = await db().collection("companies").findOne({ _id: tradeOwner?.companyId });
  const priceGroup = await db().collection("pricegroups").findOne({});
  const orders = await db()
    .collection("orders")
    .find(
      {},
      { projection: { userId: 1, paid: 1, cancelledAt: 1, removedAt: 1, paymentMethod: 1, status: 1, returns: 1 } },
    )
    .sort({ _id: -1 })
    .limit(40)
    .toArray();
  // Shipped orders still within the return window, and the demo's returns, wherever they sort among
  // the orders other tests made.
  const shipped = await db()
    .collection("orders")
    .find(
      { status: "shipped", shippedAt: { $gt: new Date(Date.now() - 20 * 24 * 3600_000) } },
      { projection: { userId: 1 } },
    )
    .sort({ _id: -1 })
    .limit(2)
    .toArray();
  const withReturns = await db()
    .collection("orders")
    .find({ "returns.0": { $exists: true } }, { projection: { returns: 1, userId: 1 } })
    .limit(3)
    .toArray();
  const withCreditNotes = await db()
    .collection("orders")
    .find({ "creditNotes.0": { $exists: true } }, { projection: { creditNotes: 1, userId: 1 } })
    .limit(3)
    .toArray();
  if (!withCreditNotes.length) throw new Error("the demo data has no credit note");
  const withParcel = await db()
    .collection("orders")
    .findOne({ "shipments.0": { $exists: true } }, { projection: { userId: 1 }, sort: { _id: 1 } });
  if (!withParcel) throw new Error("the demo data has no parcel");
  // Unpaid card orders: a customer can pay or cancel those still holding their stock.
  // Read on their own: the newest orders may all be other tests' by now, and a test that runs the
  // stock sweep at a later hour expires the demo's; then the demo's customer places one now.
  const unpaidCard = () =>
    db()
      .collection("orders")
      .find({ status: "unpaid", paymentMethod: "card", holdUntil: { $gt: new Date() } }, { projection: { userId: 1 } })
      .sort({ _id: -1 })
      .limit(3)
      .toArray();
  let unpaidOrders = await unpaidCard();
  if (!unpaidOrders.length) {
    const casey = (await getUserById(customer))!;
    const stocked = await db()
      .collection("parts")
      .findOne({ availableQuantity: { $gte: 500 }, minOrderQuantity: { $lte: 100 } });
    const placed = await placeOrder({
      lines: [{ partId: idOf(stocked), quantity: 100 }],
      phone: "+1 555 0100",
      delivery: DETROIT,
      user: casey,
    });
    if (!placed.ok) throw new Error(`the demo's customer could not place an order: ${JSON.stringify(placed)}`);
    unpaidOrders = await unpaidCard();
  }
  const unpaid = unpaidOrders[0];
  // The demo's order awaiting approval (or, once a test decided or expired it, one that waited).
  const awaiting =
    (await db().collection("orders").findOne({ status: "approval", companyId: company?._id })) ??
    (await db().collection("orders").findOne({ approvalRequired: true, companyId: company?._id }));
  if (!part || !review || !company || !unpaid)
    throw new Error("the demo data is missing a part, review, company or unpaid order");

  const token = (kind: "reset-password" | "verify-email" | "change-email") =>
    createAccountToken({
      userId: customer,
      kind,
      email: kind === "change-email" ? "casey.new@partsworks.test" : "customer@partsworks.test",
      ttlMs: 3_600_000,
    });
  const invitation = await createInvitation({
    companyId: idOf(company),
    email: "new.colleague@partsworks.test",
    role: "buyer",
    invitedBy: owner,
    ttlMs: 3_600_000,
  });

  const demoList = await db().collection("saved_lists").findOne({ name: "Monthly workshop restock" });
  if (!demoList) throw new Error("the demo data has no shared list");
  const demoQuotes = await db().collection("quotes").find({ companyId: company?._id }).toArray();
  const pages: Page[] = [
    // A visitor.
    { route: "_index", url: "/" },
    { route: "parts._index", url: "/parts" },
    { route: "parts._index", url: "/parts?q=brake&sort=price-asc" },
    { route: "parts._index", url: "/parts?q=no-such-part-anywhere" },
    { route: "parts._index", url: "/parts?page=2" },
    { route: "blogs", url: "/blogs" },
    { route: "portfolio", url: "/portfolio" },
    { route: "login", url: "/login" },
    { route: "login", url: "/login", form: { email: "nobody@partsworks.test", password: "not-the-password" } },
    { route: "signup", url: "/signup" },
    { route: "signup", url: "/signup", form: { name: "", email: "not-an-email", password: "short" } },
    { route: "currency", url: "/currency" },
    { route: "currency", url: "/currency", form: { currency: "XYZ" } },
    { route: "forgot-password", url: "/forgot-password" },
    { route: "forgot-password", url: "/forgot-password", form: { email: "" } },
    { route: "reset-password", url: `/reset-password?token=${await token("reset-password")}` },
    { route: "reset-password", url: "/reset-password?token=no-such-token" },
    { route: "verify-email", url: `/verify-email?token=${await token("verify-email")}` },
    { route: "verify-email", url: "/verify-email?token=no-such-token" },
    { route: "change-email", url: `/change-email?token=${await token("change-email")}` },
    { route: "change-email", url: "/change-email?token=no-such-token" },
    { route: "unsubscribe", url: `/unsubscribe?token=${unsubscribeToken(customer)}` },
    { route: "unsubscribe", url: "/unsubscribe?token=no-such-token" },
    { route: "invitations.$token", url: `/invitations/${invitation}` },
    { route: "invitations.$token", url: "/invitations/no-such-invitation" },
    { route: "api.docs", url: "/api/docs" },
    { route: "$", url: "/no-such-page" },
    { route: "_index", url: "/", crawler: true },
    { route: "parts._index", url: "/parts?q=filter", crawler: true },
    // A customer of their own.
    ...["/dashboard", "/dashboard/orders", "/dashboard/review", "/dashboard/cart", "/dashboard/quick-order"].map(
      (url) => ({
        route: url === "/dashboard" ? "dashboard._index" : `dashboard.${url.split("/")[2]}`,
        url,
        as: customer,
      }),
    ),
    { route: "dashboard.sessions", url: "/dashboard/sessions", as: customer },
    { route: "dashboard.apiKeys", url: "/dashboard/apiKeys", as: customer },
    { route: "dashboard.webhooks", url: "/dashboard/webhooks", as: customer },
    { route: "parts.$id", url: `/parts/${idOf(part)}`, as: customer },
    { route: "parts.$id", url: "/parts/000000000000000000000000", as: customer },
    {
      route: "dashboard.quick-order",
      url: "/dashboard/quick-order",
      as: customer,
      form: { intent: "check", lines: "PW-1003 200\nNO-SUCH 5" },
    },
    // The trade company's owner, buyer and accounts member.
    ...[owner, buyer, accounts].flatMap((as) => [
      { route: "dashboard.company", url: "/dashboard/company", as },
      { route: "dashboard.orders", url: "/dashboard/orders", as },
      { route: "dashboard.cart", url: "/dashboard/cart", as },
      { route: "dashboard._index", url: "/dashboard", as },
    ]),
    { route: "dashboard.statement", url: "/dashboard/statement", as: owner },
    // The demo's shared list: its owner changes it, a buyer of the company fills a cart from it.
    { route: "dashboard.lists", url: "/dashboard/lists", as: owner },
    { route: "dashboard.lists", url: "/dashboard/lists", as: customer },
    { route: "dashboard.lists", url: "/dashboard/lists", as: owner, form: { intent: "create", name: "" } },
    { route: "dashboard.lists_.$id", url: `/dashboard/lists/${idOf(demoList)}`, as: owner },
    { route: "dashboard.lists_.$id", url: `/dashboard/lists/${idOf(demoList)}`, as: buyer },
    { route: "dashboard.lists_.$id_.delete", url: `/dashboard/lists/${idOf(demoList)}/delete`, as: owner },
    // Every version of the demo's quotes as a quotation, as the company's owner reads it; the first as staff.
    ...demoQuotes.flatMap((quote) =>
      ((quote.versions ?? []) as unknown[]).map((_, index) => ({
        route: "documents.quotes.$id.$version",
        url: `/documents/quotes/${idOf(quote)}/${index + 1}`,
        as: owner,
      })),
    ),
    ...demoQuotes
      .filter((quote) => quote.versions?.length)
      .slice(0, 1)
      .map((quote) => ({
        route: "documents.quotes.$id.$version",
        url: `/documents/quotes/${idOf(quote)}/1`,
        as: admin,
      })),
    // The buyer's side: My Quotes (empty for Casey), the request form sent with a part that does not
    // exist, and each demo quote as the company's owner reads it (the accept form on a quoted one).
    { route: "dashboard.quotes", url: "/dashboard/quotes", as: owner },
    { route: "dashboard.quotes", url: "/dashboard/quotes", as: customer },
    { route: "dashboard.quotes_.new", url: "/dashboard/quotes/new?from=cart", as: owner },
    {
      route: "dashboard.quotes_.new",
      url: "/dashboard/quotes/new",
      as: owner,
      form: { intent: "request", "lines[0].partNumber": "NO-SUCH", "lines[0].quantity": "1", wantedBy: "2000-01-01" },
    },
    ...demoQuotes.map((quote) => ({
      route: "dashboard.quotes_.$id",
      url: `/dashboard/quotes/${idOf(quote)}`,
      as: owner,
    })),
    ...demoQuotes.slice(0, 1).map((quote) => ({
      route: "dashboard.quotes_.$id",
      url: `/dashboard/quotes/${idOf(quote)}`,
      as: accounts,
    })),
    // Each demo quote as staff read it; an open one's price form sent empty, and its Decline confirmation.
    ...demoQuotes.map((quote) => ({
      route: "dashboard.manageQuotes_.$id",
      url: `/dashboard/manageQuotes/${idOf(quote)}`,
      as: admin,
    })),
    ...demoQuotes
      .filter((quote) => ["requested", "revision", "quoted"].includes(String(quote.status)))
      .slice(0, 1)
      .flatMap((quote) => [
        {
          route: "dashboard.manageQuotes_.$id",
          url: `/dashboard/manageQuotes/${idOf(quote)}`,
          as: admin,
          form: { intent: "send", expectedVersions: String(quote.versions?.length ?? 0), validUntil: "2000-01-01" },
        },
        {
          route: "dashboard.manageQuotes_.$id_.decline",
          url: `/dashboard/manageQuotes/${idOf(quote)}/decline`,
          as: admin,
        },
      ]),
    { route: "dashboard.statement", url: "/dashboard/statement", as: accounts },
    ...unpaidOrders.flatMap((order) => [
      {
        route: "dashboard.orders_.$id.cancel",
        url: `/dashboard/orders/${idOf(order)}/cancel`,
        as: String(order.userId),
      },
      { route: "dashboard.payment.$id", url: `/dashboard/payment/${idOf(order)}`, as: String(order.userId) },
      {
        route: "dashboard.payment.$id_.success",
        url: `/dashboard/payment/${idOf(order)}/success`,
        as: String(order.userId),
      },
    ]),
    // Every order of the demo, as its placer and as staff, with its documents.
    ...orders.flatMap((order) => [
      { route: "dashboard.orders_.$id._index", url: `/dashboard/orders/${idOf(order)}`, as: String(order.userId) },
      { route: "dashboard.manageOrders_.$id._index", url: `/dashboard/manageOrders/${idOf(order)}`, as: admin },
      ...["invoice", "pro-forma", "packing-slip"].map((kind) => ({
        route: "documents.$id.$kind",
        url: `/documents/${idOf(order)}/${kind}`,
        as: kind === "packing-slip" ? admin : String(order.userId),
      })),
    ]),
    { route: "dashboard.manageOrders_.$id.remove", url: `/dashboard/manageOrders/${idOf(unpaid)}/remove`, as: admin },
    // The order awaiting approval as its company's owner: Approve and Decline, and Decline's confirmation.
    ...(awaiting
      ? [
          { route: "dashboard.orders_.$id._index", url: `/dashboard/orders/${idOf(awaiting)}`, as: owner },
          { route: "dashboard.orders_.$id.decline", url: `/dashboard/orders/${idOf(awaiting)}/decline`, as: owner },
        ]
      : []),
    // A parcel's packing slip as its customer reads it; the whole order's (what is left) as staff.
    {
      route: "documents.$id.$kind",
      url: `/documents/${idOf(withParcel)}/packing-slip?parcel=1`,
      as: String(withParcel.userId),
    },
    { route: "documents.$id.$kind", url: `/documents/${idOf(withParcel)}/packing-slip`, as: admin },
    // Returns: the request form of each shipped order, and staff's page of each return the demo holds.
    ...shipped.map((order) => ({
      route: "dashboard.orders_.$id.return",
      url: `/dashboard/orders/${idOf(order)}/return`,
      as: String(order.userId),
    })),
    // Credit notes: the demo's received return is credited; its credit note as its customer reads it.
    ...withCreditNotes.flatMap((order) =>
      ((order.creditNotes ?? []) as { number?: number }[]).map((note) => ({
        route: "documents.$id.$kind",
        url: `/documents/${idOf(order)}/credit-note?number=${formatCreditNoteNumber(note.number ?? 0)}`,
        as: String(order.userId),
      })),
    ),
    ...withReturns.flatMap((order) =>
      ((order.returns ?? []) as { _id: unknown }[]).map((item) => ({
        route: "dashboard.manageOrders_.$id.returns.$returnId",
        url: `/dashboard/manageOrders/${idOf(order)}/returns/${String(item._id)}`,
        as: admin,
      })),
    ),
    // The RMA document of each numbered return (approved, received), as its customer reads it.
    ...withReturns.flatMap((order) =>
      ((order.returns ?? []) as { number?: number }[])
        .filter((item) => item.number)
        .map((item) => ({
          route: "documents.$id.rma.$number",
          url: `/documents/${idOf(order)}/rma/${formatRmaNumber(item.number!)}`,
          as: String(order.userId),
        })),
    ),
    // Staff.
    ...[
      ["dashboard.admin", "/dashboard/admin"],
      ["dashboard._index", "/dashboard"],
      ["dashboard.allUsers", "/dashboard/allUsers"],
      ["dashboard.allUsers", `/dashboard/allUsers?company=${idOf(company)}`],
      ["dashboard.allUsers_.$id._index", `/dashboard/allUsers/${owner}`],
      ["dashboard.allUsers_.$id.$intent", `/dashboard/allUsers/${customer}/make-admin`],
      ["dashboard.allUsers_.$id.$intent", `/dashboard/allUsers/${customer}/sign-out`],
      ["dashboard.addProduct", "/dashboard/addProduct"],
      ["dashboard.manageProducts", "/dashboard/manageProducts"],
      ["dashboard.manageProducts_.$id.edit", `/dashboard/manageProducts/${idOf(part)}/edit`],
      ["dashboard.manageProducts_.$id.delete", `/dashboard/manageProducts/${idOf(part)}/delete`],
      ["dashboard.manageProducts_.import", "/dashboard/manageProducts/import"],
      ["dashboard.manageProducts_.priceLists.import", "/dashboard/manageProducts/priceLists/import"],
      ["dashboard.manageOrders", "/dashboard/manageOrders"],
      ["dashboard.manageOrders", "/dashboard/manageOrders?status=unpaid&q=SO-"],
      ["dashboard.manageOrders", "/dashboard/manageOrders?q=no-such-order"],
      ["dashboard.manageQuotes", "/dashboard/manageQuotes"],
      ["dashboard.manageQuotes", "/dashboard/manageQuotes?status=waiting&customer=partsworks"],
      ["dashboard.priceGroups", "/dashboard/priceGroups"],
      ["dashboard.priceGroups", `/dashboard/priceGroups?edit=${idOf(priceGroup)}`],
      ["dashboard.exchangeRates", "/dashboard/exchangeRates"],
      ["dashboard.companies", "/dashboard/companies"],
      ["dashboard.companies_.$id", `/dashboard/companies/${idOf(company)}`],
      ["dashboard.companies_.$id_.statement", `/dashboard/companies/${idOf(company)}/statement`],
      ["dashboard.reviews", "/dashboard/reviews"],
      ["dashboard.reviews_.$id.delete", `/dashboard/reviews/${idOf(review)}/delete`],
      ["dashboard.audit", "/dashboard/audit"],
      ["dashboard.failedMail", "/dashboard/failedMail"],
      ["dashboard.sessions", "/dashboard/sessions"],
      ["dashboard.apiKeys", "/dashboard/apiKeys"],
      ["dashboard.webhooks", "/dashboard/webhooks"],
      ["parts.$id", `/parts/${idOf(part)}`],
    ].map(([route, url]) => ({ route, url, as: admin })),
    { route: "dashboard.addProduct", url: "/dashboard/addProduct", as: admin, form: { name: "", price: "-1" } },
    { route: "dashboard.manageOrders", url: "/dashboard/manageOrders", as: admin, crawler: true },
  ];
  return pages;
}

type Fetched = { page: Page; name: string; status: number; type: string; bytes: Uint8Array };

const cookies = new Map<string, Promise<string>>();
const cookieOf = (id: string) => {
  if (!cookies.has(id)) cookies.set(id, sessionCookieHeader(id));
  return cookies.get(id)!;
};

async function fetchPage(page: Page): Promise<Fetched> {
  const headers: Record<string, string> = {};
  if (page.as) headers.Cookie = await cookieOf(page.as);
  if (page.crawler) headers["User-Agent"] = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
  const init: RequestInit = { headers, redirect: "manual" };
  if (page.form) {
    init.method = "POST";
    init.body = new URLSearchParams(page.form);
    headers.Origin = ORIGIN;
    headers["Content-Type"] = "application/x-www-form-urlencoded";
  }
  const response = await fetch(new URL(page.url, BASE), init);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const name = `${page.form ? "POST" : "GET"} ${page.url}${page.as ? ` (as ${page.as})` : ""}${page.crawler ? " (crawler)" : ""}`;
  return { page, name, status: response.status, type: response.headers.get("content-type") ?? "", bytes };
}

let fetched: Fetched[] = [];

beforeAll(async () => {
  const pages = await pagesToCheck();
  // A few at a time: the shop answers them as it would a handful of visitors.
  for (let i = 0; i < pages.length; i += 4) fetched.push(...(await Promise.all(pages.slice(i, i + 4).map(fetchPage))));
  // Redirects (to sign in, to the cart) have no document to check.
  fetched = fetched.filter((one) => one.status < 300 || one.status >= 400);
}, 120_000);

describe("every page a visitor, a customer, a company's members and staff open", () => {
  test("is strict UTF-8 without a NUL byte", () => {
    const problems = fetched.flatMap((one) => byteProblems(one.bytes).map((problem) => `${one.name}: ${problem}`));
    expect(problems).toEqual([]);
    expect(fetched.length).toBeGreaterThan(100);
  });

  test("is one HTML document that ends with </html>, with nothing after it", () => {
    const html = fetched.filter((one) => one.type.startsWith("text/html"));
    const problems = html.flatMap((one) =>
      documentEndProblems(Buffer.from(one.bytes).toString("utf8")).map((problem) => `${one.name}: ${problem}`),
    );
    expect(problems).toEqual([]);
    expect(html.length).toBe(fetched.length);
  });

  test("passes the W3C Nu Html Checker with zero errors", async () => {
    const results = await checkHtml(
      fetched.map((one) => ({ name: one.name, html: Buffer.from(one.bytes).toString("utf8") })),
    );
    const errors = [...results].flatMap(([name, messages]) =>
      messages.map((m) => `${name}: ${m.message} [${m.extract ?? ""}]`),
    );
    expect(errors).toEqual([]);
  }, 120_000);

  test("the documents' own HTML, which the PDFs print, passes the checker too", async () => {
    const admin = await userId("admin@partsworks.test");
    const cookie = await cookieOf(admin);
    const documents = fetched.filter((one) => one.page.route === "documents.$id.$kind" && one.status === 200);
    const rendered = await Promise.all(
      documents.map(async (one) => {
        // The path names the order and the kind (a credit note's number is in the query).
        const [, , id, kind] = new URL(one.page.url, BASE).pathname.split("/");
        const data = await loadOrderDocument(
          new Request(new URL(one.page.url, BASE), { headers: { Cookie: cookie } }),
          id,
          kind,
          { pdf: true },
        );
        return { name: `PDF of ${one.page.url}`, html: renderDocumentHtml(data) };
      }),
    );
    const rmas = fetched.filter((one) => one.page.route === "documents.$id.rma.$number" && one.status === 200);
    for (const one of rmas) {
      const [, , id, , number] = new URL(one.page.url, BASE).pathname.split("/");
      const rma = await rmaDocumentFor({ id: admin, role: "admin", companyId: null }, id, number);
      rendered.push({ name: `PDF of ${one.page.url}`, html: renderRmaHtml(rma!) });
    }
    const quotations = fetched.filter(
      (one) => one.page.route === "documents.quotes.$id.$version" && one.status === 200,
    );
    const staff = (await getUserById(admin))!;
    for (const one of quotations) {
      const [, , , id, version] = new URL(one.page.url, BASE).pathname.split("/");
      rendered.push({
        name: `PDF of ${one.page.url}`,
        html: renderQuoteHtml((await quoteDocumentFor(staff, id, version))!),
      });
    }
    expect(quotations.length).toBeGreaterThan(2);
    expect(rmas.length).toBeGreaterThan(0);
    expect(rendered.length).toBeGreaterThan(5);
    expect(rendered.flatMap((doc) => byteProblems(Buffer.from(doc.html, "utf8")))).toEqual([]);
    const results = await checkHtml(rendered);
    expect([...results].flatMap(([name, messages]) => messages.map((m) => `${name}: ${m.message}`))).toEqual([]);
  }, 60_000);

  test("the data answers of client-side navigation are clean bytes too", async () => {
    const [admin, owner] = await Promise.all([userId("admin@partsworks.test"), userId("trade@partsworks.test")]);
    const answers = await Promise.all(
      [
        ["/parts.data", admin],
        ["/dashboard/manageOrders.data", admin],
        ["/dashboard/orders.data", owner],
        ["/dashboard/audit.data", admin],
      ].map(([url, as]) => fetchPage({ route: "", url, as })),
    );
    expect(answers.map((one) => one.status)).toEqual([200, 200, 200, 200]);
    expect(answers.flatMap((one) => byteProblems(one.bytes))).toEqual([]);
  });

  test("every route module with a screen is among the pages checked", () => {
    // A route module is a file of app/routes or a folder with its route.tsx.
    const screens = routeModules()
      .filter(({ file }) => /^export default/m.test(readFileSync(file, "utf8")))
      .map(({ entry }) => entry.replace(/\.tsx?$/, ""))
      // The dashboard's drawer wraps every dashboard screen; it has no page of its own.
      .filter((route) => route !== "dashboard");
    const checked = new Set(
      fetched.filter((one) => one.status === 200 || one.page.route === "$").map((one) => one.page.route),
    );
    // A route missing here either has no line above or answered none of its lines with its screen.
    const missing = screens
      .filter((route) => !checked.has(route))
      .map(
        (route) =>
          `${route}: ${
            fetched
              .filter((one) => one.page.route === route)
              .map((one) => `${one.name} ${one.status}`)
              .join(", ") || "no line"
          }`,
      );
    expect(missing).toEqual([]);
  });
});
