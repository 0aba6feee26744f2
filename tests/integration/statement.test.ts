/**
 * The statement of account, read from the ledger, against the local database through the screens'
 * own loaders and actions: who owes whom in words, every entry with its running balance, the period
 * filter and its errors, ageing by due date, the downloads, staff's copy, the API's additions, and
 * the customer's request to be paid what we owe them.
 */
import { parse } from "csv-parse/sync";
import { describe, expect, test } from "vitest";
import { formatCents } from "~/format";
import { Audit } from "~/models/audit.server";
import { createApiKey } from "~/models/api-key.server";
import { Outbox } from "~/models/outbox.server";
import { Part } from "~/models/part.server";
import { getUserById } from "~/models/user.server";
import { placeOrder } from "~/orders/checkout.server";
import { cancelPaidOrderWithCredit } from "~/orders/credit-notes.server";
import { postOrderToLedger } from "~/orders/ledger.server";
import { LedgerEntry } from "~/orders/model/ledger.server";
import { getOrderById } from "~/orders/model/reads.server";
import { Order } from "~/orders/model/schema.server";
import { renderStatementHtml, statementView } from "~/orders/statement-document.server";
import { loader as apiStatement } from "~/routes/api.v1.statement";
import { loader as staffStatement } from "~/routes/dashboard.companies_.$id_.statement";
import { loader as staffDownload } from "~/routes/dashboard.companies_.$id_.statement_.$format";
import { loader as myOrdersLoader } from "~/routes/dashboard.orders";
import { action as statementAction, loader as statementLoader } from "~/routes/dashboard.statement/route";
import { loader as download } from "~/routes/dashboard.statement_.$format";
import { DETROIT } from "../fixtures/addresses";
import { createPart, createUser, sessionCookieHeader, updateCompanyOf } from "../setup/factories";
import { paidOrder, staff } from "../setup/paid-orders";
import { actionArgs, fetchPage, getRequest, loaderArgs, pageText, postRequest, settle } from "../setup/requests";

const DAY_MS = 86_400_000;
const day = (date: Date) => date.toISOString().slice(0, 10);

type StatementShown = {
  currency: string;
  headline: string;
  openingCents: number;
  closingCents: number;
  owesCents: number;
  owedCents: number;
  ageing: Record<string, number>;
  lines: { description: string; document: string; status: string | null; balanceCents: number }[];
  openInvoices: { document: string; daysOverdue: number }[];
};

type Screen = {
  view: { statements: StatementShown[]; terms: string; currency: string; creditLimitCents: number } | null;
  mayAskPayout: boolean;
  result: { error?: Record<string, string[]> };
};

/** The statement of an account that holds one currency. */
const only = (view: Screen["view"]) => {
  expect(view!.statements).toHaveLength(1);
  return view!.statements[0];
};

async function statementOf(cookie: string, query = "") {
  const response = await settle(statementLoader(loaderArgs(getRequest(`/dashboard/statement${query}`, { cookie }))));
  return { status: response.status, body: (await response.json()) as Screen };
}

/** A customer alone whose company has `termsDays` net days, with an order of theirs on account. */
async function orderOnAccount(termsDays: number) {
  const user = await createUser({ name: "Sam Statement" });
  await updateCompanyOf(user.id, { $set: { "account.termsDays": termsDays, "account.creditLimitCents": 10_000_000 } });
  const part = await createPart({ priceCents: 1_000, availableQuantity: 1_000, minOrderQuantity: 1 });
  const placed = await placeOrder({
    lines: [{ partId: part.id, quantity: 100 }],
    phone: "+1 555 0170",
    delivery: { ...DETROIT, line1: "7 Statement Street" },
    user: (await getUserById(user.id))!,
    onAccount: { termsDays },
    payment: "account",
  });
  if (!placed.ok) throw new Error("not placed");
  return { user, order: (await getOrderById(placed.order.id))!, cookie: await sessionCookieHeader(user.id) };
}

/** An order on account of `user`'s company in euros: a part with a euro price, the buyer buying in euros. */
async function euroOrderOnAccount(user: { id: string }, quantity = 50) {
  const part = await createPart({ priceCents: 1_000, availableQuantity: 1_000, minOrderQuantity: 1 });
  await Part.updateOne({ _id: part.id }, { $set: { prices: [{ currency: "EUR", priceCents: 900 }] } });
  const placed = await placeOrder({
    lines: [{ partId: part.id, quantity }],
    phone: "+1 555 0171",
    delivery: { ...DETROIT, line1: "8 Statement Street" },
    user: (await getUserById(user.id))!,
    onAccount: { termsDays: 30 },
    payment: "account",
    pricing: { group: null, tax: null, currency: "EUR" },
  });
  if (!placed.ok) throw new Error("not placed in euros");
  return (await getOrderById(placed.order.id))!;
}

describe("the statement of account", () => {
  test("a customer alone with a card order reads it: paid, nothing owed, no 'card only' and no Pending", async () => {
    const { user, order } = await paidOrder(40, "card");
    await postOrderToLedger((await getOrderById(order.id))!);
    const cookie = await sessionCookieHeader(user.id);
    const orders = await (await settle(myOrdersLoader(loaderArgs(getRequest("/dashboard/orders", { cookie }))))).json();
    expect(orders.mayReadStatement).toBe(true);

    const { status, body } = await statementOf(cookie);
    expect(status).toBe(200);
    const statement = only(body.view);
    const { terms } = body.view!;
    expect(statement.headline).toBe("Nothing is owed either way");
    expect(statement.lines.map((line) => line.description)).toEqual(["Invoice", "Card payment"]);
    expect(statement.lines[0]).toMatchObject({ document: expect.stringMatching(/^INV-\d{6}$/), status: "Paid" });
    expect(statement.lines.map((line) => line.balanceCents)).toEqual([order.totalCents, 0]);
    expect(terms).not.toContain("card only");
    expect(JSON.stringify(body)).not.toContain("Pending");
    expect(body.mayAskPayout).toBe(false);
  });

  test("an overdue invoice on account: 'You owe us', aged by its due date; a period brings the balance forward", async () => {
    const { order, cookie } = await orderOnAccount(30);
    // Invoiced 80 days ago, due 50 days ago.
    const invoicedAt = new Date(Date.now() - 80 * DAY_MS);
    await Order.updateOne({ _id: order.id }, { $set: { dueAt: new Date(Date.now() - 50 * DAY_MS) } });
    await LedgerEntry.updateOne({ _id: `invoice:${order.id}` }, { $set: { at: invoicedAt } });

    const { body } = await statementOf(cookie);
    const statement = only(body.view);
    expect(statement.headline).toBe(`You owe us ${formatCents(order.totalCents)}`);
    expect(statement.ageing).toMatchObject({ current: 0, days31To60: order.totalCents, over90Days: 0 });
    expect(statement.openInvoices).toEqual([expect.objectContaining({ daysOverdue: 50 })]);
    expect(statement.lines[0].status).toMatch(/open, overdue 50 days \(due /);

    // From after the invoice: it is the opening balance, and nothing happened since.
    const later = await statementOf(cookie, `?from=${day(new Date(Date.now() - 10 * DAY_MS))}`);
    expect(later.status).toBe(200);
    expect(only(later.body.view)).toMatchObject({ openingCents: order.totalCents, lines: [] });
    expect(only(later.body.view).closingCents).toBe(order.totalCents);
    // Up to the day before it was invoiced: nothing owed then.
    const before = await statementOf(cookie, `?to=${day(new Date(Date.now() - 81 * DAY_MS))}`);
    expect(only(before.body.view)).toMatchObject({ headline: "Nothing is owed either way", closingCents: 0 });
  });

  test("bad dates: a 400 with the message next to the field, for the screen and the downloads", async () => {
    const { cookie } = await orderOnAccount(30);
    const bad = await statementOf(cookie, "?from=2026-13-45");
    expect(bad.status).toBe(400);
    expect(bad.body.view).toBeNull();
    expect(bad.body.result.error?.from).toEqual(["Enter a date such as 2026-01-31"]);
    const backwards = await statementOf(cookie, "?from=2026-02-01&to=2026-01-01");
    expect(backwards.status).toBe(400);
    expect(backwards.body.result.error?.to).toEqual(["The end date must not be before the start date"]);
    const csv = await settle(
      download(loaderArgs(getRequest("/dashboard/statement/csv?to=yesterday", { cookie }), { format: "csv" })),
    );
    expect(csv.status).toBe(400);
    expect(await csv.text()).toBe("Enter a date such as 2026-01-31");
  });

  test("the CSV has the opening balance, each entry with its running balance, and the closing balance", async () => {
    const { order, cookie } = await orderOnAccount(30);
    const response = await settle(
      download(loaderArgs(getRequest("/dashboard/statement/csv", { cookie }), { format: "csv" })),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toMatch(/partsworks-statement-start-to-\d{4}-\d{2}-\d{2}\.csv/);
    const rows = parse(new TextDecoder().decode(await response.arrayBuffer()).replace(/^\uFEFF/, ""), {
      columns: true,
    }) as Record<string, string>[];
    expect(rows.map((row) => row.Details)).toEqual([
      "Opening balance",
      "Invoice",
      expect.stringMatching(/^Closing balance: You owe us \$/),
    ]);
    expect(rows[1]["Order"]).toBe(order.number);
    expect(Number(rows[1]["Charges"])).toBe(order.totalCents / 100);
    expect(Number(rows[2]["Balance (below zero: we owe you)"])).toBe(order.totalCents / 100);
  });

  test("in credit: 'We owe you', the customer asks us to pay it out, staff are told once a day", async () => {
    const { user, order } = await paidOrder(50, "bank-transfer");
    const cancelled = await cancelPaidOrderWithCredit(order.id, staff);
    if (!cancelled.ok || !cancelled.note) throw new Error("not credited");
    const cookie = await sessionCookieHeader(user.id);
    const amount = formatCents(order.totalCents);

    const { body } = await statementOf(cookie);
    expect(only(body.view).headline).toBe(`We owe you ${amount}`);
    expect(only(body.view).owedCents).toBe(order.totalCents);
    expect(JSON.stringify(body.view)).not.toMatch(/[−-]\s?\$/);
    expect(body.mayAskPayout).toBe(true);

    await createUser({ role: "admin", email: `statement-admin-${user.id}@example.com` });
    const ask = () =>
      settle(statementAction(actionArgs(postRequest("/dashboard/statement", { intent: "ask-payout" }, { cookie }))));
    const asked = await ask();
    expect(asked.status).toBe(302);
    expect(asked.headers.get("Location")).toBe("/dashboard/statement");
    expect(asked.headers.get("Set-Cookie")).toContain("toast");
    expect(await Audit.countDocuments({ action: "company.ask-payout", targetId: user.companyId })).toBe(1);
    const mail = await Outbox.find({ _id: new RegExp(`^payout-request:${user.companyId}:`) }).lean();
    expect(mail).toHaveLength(1);
    expect(mail[0].subject).toBe(`Payout asked: ${amount} to Carl Customer`);
    expect(mail[0].to).toContain(`statement-admin-${user.id}@example.com`);
    // Asked again the same day: logged, not mailed twice.
    expect((await ask()).status).toBe(302);
    expect(await Outbox.countDocuments({ _id: new RegExp(`^payout-request:${user.companyId}:`) })).toBe(1);

    // A buyer may not ask; nothing owed, nothing to ask for.
    const buyer = await createUser({ company: { id: user.companyId, role: "buyer" } });
    const refused = await settle(
      statementAction(
        actionArgs(
          postRequest(
            "/dashboard/statement",
            { intent: "ask-payout" },
            { cookie: await sessionCookieHeader(buyer.id) },
          ),
        ),
      ),
    );
    expect(refused.status).toBe(403);
    const { user: even } = await paidOrder(20, "card");
    const nothing = await settle(
      statementAction(
        actionArgs(
          postRequest("/dashboard/statement", { intent: "ask-payout" }, { cookie: await sessionCookieHeader(even.id) }),
        ),
      ),
    );
    expect(nothing.status).toBe(409);
    expect(JSON.stringify(await nothing.json())).toContain("We owe you nothing just now");
  });

  test("staff see the same statement for the company, with its own downloads; customers cannot reach it", async () => {
    const { user, order } = await orderOnAccount(15);
    const admin = await createUser({ role: "admin" });
    const adminCookie = await sessionCookieHeader(admin.id);
    const path = `/dashboard/companies/${user.companyId}/statement`;
    const page = await settle(
      staffStatement(loaderArgs(getRequest(path, { cookie: adminCookie }), { id: user.companyId })),
    );
    expect(page.status).toBe(200);
    const seen = (await page.json()) as Screen;
    const mine = await statementOf(await sessionCookieHeader(user.id));
    expect(only(seen.view).headline).toBe(only(mine.body.view).headline);
    expect(only(seen.view).lines).toEqual(only(mine.body.view).lines);

    const csv = await settle(
      staffDownload(
        loaderArgs(getRequest(`${path}/csv`, { cookie: adminCookie }), { id: user.companyId, format: "csv" }),
      ),
    );
    expect(csv.status).toBe(200);
    expect(await csv.text()).toContain(order.number);
    const missing = await settle(
      staffStatement(loaderArgs(getRequest("/dashboard/companies/x/statement", { cookie: adminCookie }), { id: "x" })),
    );
    expect(missing.status).toBe(404);
    const customer = await settle(
      staffStatement(
        loaderArgs(getRequest(path, { cookie: await sessionCookieHeader(user.id) }), { id: user.companyId }),
      ),
    );
    expect(customer.status).toBe(302);
  });

  test("the API keeps every field and adds owes, owed, ageing and a period (400 on a bad date)", async () => {
    const { user, order } = await orderOnAccount(30);
    await Order.updateOne({ _id: order.id }, { $set: { dueAt: new Date(Date.now() - 5 * DAY_MS) } });
    await postOrderToLedger((await getOrderById(order.id))!);
    const { token } = await createApiKey({
      ownerId: user.id,
      companyId: user.companyId,
      name: "Books",
      scopes: ["read"],
    });
    const call = (query = "") =>
      settle(
        apiStatement(
          loaderArgs(
            new Request(`http://localhost:3000/api/v1/statement${query}`, {
              headers: { Authorization: `Bearer ${token}` },
            }),
          ),
        ),
      );
    const answer = await call();
    expect(answer.status).toBe(200);
    const body = await answer.json();
    expect(body).toMatchObject({
      termsDays: 30,
      balance: { amount: order.totalCents, currency: "USD" },
      overdue: { amount: order.totalCents, currency: "USD" },
      owes: { amount: order.totalCents, currency: "USD" },
      owed: { amount: 0, currency: "USD" },
      ageing: { current: { amount: 0 }, days1To30: { amount: order.totalCents } },
      period: { from: null, to: null, opening: { amount: 0 }, closing: { amount: order.totalCents } },
    });
    expect(body.invoices).toHaveLength(1);
    expect(body.ledger.entries).toHaveLength(1);

    const later = await (await call(`?from=${day(new Date(Date.now() + DAY_MS))}`)).json();
    expect(later.ledger.entries).toEqual([]);
    expect(later.period.opening.amount).toBe(order.totalCents);

    const bad = await call("?from=2026-13-45&to=2026-01-01");
    expect(bad.status).toBe(400);
    expect(bad.headers.get("Content-Type")).toBe("application/problem+json");
    expect((await bad.json()).errors).toEqual([{ field: "from", message: "Enter a date such as 2026-01-31" }]);
  });

  test("a dollar and a euro order: a statement a currency, each with its own balance and ageing, never a sum", async () => {
    const { user, order, cookie } = await orderOnAccount(30);
    const euro = await euroOrderOnAccount(user);
    expect(euro.currency).toBe("EUR");
    const dollars = formatCents(order.totalCents);
    const euros = formatCents(euro.totalCents, { currency: "EUR" });
    // Figures a sum across the currencies would show, in either's sign.
    const sums = [
      formatCents(order.totalCents + euro.totalCents),
      formatCents(order.totalCents + euro.totalCents, { currency: "EUR" }),
    ];

    const { status, body } = await statementOf(cookie);
    expect(status).toBe(200);
    const [usd, eur] = body.view!.statements;
    expect(body.view!.statements.map((statement) => statement.currency)).toEqual(["USD", "EUR"]);
    expect(usd).toMatchObject({ headline: `You owe us ${dollars}`, closingCents: order.totalCents });
    expect(eur).toMatchObject({ headline: `You owe us ${euros}`, closingCents: euro.totalCents });
    expect(eur.lines.map((line) => [line.description, line.balanceCents])).toEqual([["Invoice", euro.totalCents]]);
    expect(eur.lines[0].status).toMatch(new RegExp(`^${euros.replace(/[.$]/g, "\\$&")} open, due `));
    expect(eur.ageing.current).toBe(euro.totalCents);
    expect(usd.ageing.current).toBe(order.totalCents);

    // The screen: a section a currency, each with its headline and balance.
    const page = await pageText(await fetchPage("/dashboard/statement", cookie));
    expect(page).toContain(`You owe us ${dollars}`);
    expect(page).toContain(`You owe us ${euros}`);
    expect(page).toContain("In US dollars (USD)");
    expect(page).toContain("In euros (EUR)");
    expect(page).toContain(`Closing balance ${euros}`);
    for (const sum of sums) expect(page).not.toContain(sum);

    // The CSV: each currency from its opening to its closing balance, its rows naming it.
    const csv = await settle(
      download(loaderArgs(getRequest("/dashboard/statement/csv", { cookie }), { format: "csv" })),
    );
    const rows = parse(new TextDecoder().decode(await csv.arrayBuffer()).replace(/^\uFEFF/, ""), {
      columns: true,
    }) as Record<string, string>[];
    expect(rows.map((row) => [row.Details.replace(/:.*/, ""), row.Currency])).toEqual([
      ["Opening balance", "USD"],
      ["Invoice", "USD"],
      ["Closing balance", "USD"],
      ["Opening balance", "EUR"],
      ["Invoice", "EUR"],
      ["Closing balance", "EUR"],
    ]);
    expect(Number(rows[4].Charges)).toBe(euro.totalCents / 100);
    expect(rows[5].Details).toBe(`Closing balance: You owe us ${euros}`);
    expect(Number(rows[5]["Balance (below zero: we owe you)"])).toBe(euro.totalCents / 100);

    // The PDF's page: the same sections, and the euro account to pay the euros into.
    const html = renderStatementHtml((await statementView(user.companyId, {}))!);
    expect(html).toContain("Entries in US dollars (USD), oldest first");
    expect(html).toContain("Entries in euros (EUR), oldest first");
    expect(html).toContain(`Pay ${euros} by bank transfer`);
    expect(html).toMatch(/IBAN: DE\d\d/);
    for (const sum of sums) expect(html).not.toContain(sum);
  });
});
