/**
 * Staff screens read each account's money from the ledger, against the real database and the
 * running shop: the customer's and the company's records, All Users and Companies say what the
 * account owes and what the shop owes it; Shop Today and the company's record list the credit notes
 * holding credit, each paid out with its bank reference (required: refused at the field, nothing
 * written); the orders' CSV ends with each order's invoiced, received, credited and open amounts. An
 * account in two currencies shows a figure a currency on every screen, never their sum.
 */
import { parse } from "csv-parse/sync";
import { describe, expect, test } from "vitest";
import { formatCents } from "~/format";
import { Audit } from "~/models/audit.server";
import { placeOrder } from "~/orders/checkout.server";
import { cancelPaidOrderWithCredit } from "~/orders/credit-notes.server";
import { postOrderToLedger } from "~/orders/ledger.server";
import { LedgerEntry } from "~/orders/model/ledger.server";
import { getOrderById } from "~/orders/model/reads.server";
import { action as homeAction, loader as homeLoader } from "~/routes/dashboard.admin";
import { action as companyAction, loader as companyLoader } from "~/routes/dashboard.companies_.$id/route";
import { loader as ordersCsv } from "~/routes/dashboard.manageOrders_.export";
import { DETROIT } from "../fixtures/addresses";
import { Part } from "~/models/part.server";
import type { Currency } from "~/domain/money";
import { createPart, createUser, sessionCookieHeader, updateCompanyOf } from "../setup/factories";
import { paidOrder, staff } from "../setup/paid-orders";
import { actionArgs, fetchPage, getRequest, loaderArgs, pageText, postRequest, settle } from "../setup/requests";
import { expectFieldError, signedIn, toastOf } from "./ordering.helpers";

const tag = () => Math.random().toString(36).slice(2, 8);

/** A customer whose bank-paid order was cancelled with a full credit note: the shop owes them the order's total. */
async function customerInCredit(name = `Credit Garage ${tag()}`) {
  const { user, order } = await paidOrder(100, "bank-transfer");
  await updateCompanyOf(user.id, { $set: { companyName: name, nameKey: name.toLowerCase() } });
  const cancelled = await cancelPaidOrderWithCredit(order.id, staff);
  if (!cancelled.ok || !cancelled.note) throw new Error("not cancelled with its credit note");
  await postOrderToLedger((await getOrderById(order.id))!);
  return { user, order, note: cancelled.note, name, total: order.totalCents };
}

const both = (owes: number, owed: number) => `Owes us ${formatCents(owes)} · We owe them ${formatCents(owed)}`;

describe("what an account owes and is owed, from the ledger", () => {
  test("a customer in credit: their record, their company's, All Users and Companies show the credit, not $0.00", async () => {
    const { cookie } = await signedIn("admin");
    const { user, name, total, note } = await customerInCredit();
    const figures = both(0, total);

    const record = await pageText(await fetchPage(`/dashboard/allUsers/${user.id}`, cookie));
    expect(record).toContain(`Open on account ${figures}`);
    expect(record).toContain("Pay out their credit on the company's record");
    const company = await pageText(await fetchPage(`/dashboard/companies/${user.companyId}`, cookie));
    expect(company).toContain(`Open on account ${figures}`);
    expect(company).toContain(`${note.number} of`);
    expect(company).toContain(`${formatCents(total)} to pay out`);
    const users = await pageText(await fetchPage(`/dashboard/allUsers?company=${user.companyId}`, cookie));
    expect(users).toContain(figures);
    const companies = await pageText(await fetchPage(`/dashboard/companies?q=${encodeURIComponent(name)}`, cookie));
    expect(companies).toContain(figures);
  });

  test("a customer owing an invoice on account: owes us its total, we owe them nothing", async () => {
    const { cookie } = await signedIn("admin");
    const customer = await createUser();
    await updateCompanyOf(customer.id, { $set: { account: { termsDays: 30, creditLimitCents: 10_000_000 } } });
    const part = await createPart({ priceCents: 1_000, availableQuantity: 1_000, minOrderQuantity: 1 });
    const placed = await placeOrder({
      lines: [{ partId: part.id, quantity: 50 }],
      phone: "+1 555 0100",
      delivery: { ...DETROIT, line1: "2 Ledger Row" },
      user: customer,
      onAccount: { termsDays: 30 },
      payment: "account",
    });
    if (!placed.ok) throw new Error("not placed on account");
    await postOrderToLedger((await getOrderById(placed.order.id))!);

    const record = await pageText(await fetchPage(`/dashboard/allUsers/${customer.id}`, cookie));
    expect(record).toContain(`Open on account ${both(placed.order.totalCents, 0)}`);
    expect(record).not.toContain("Pay out their credit");
    // React's markers between text parts read as spaces: " ," is ",".
    const company = (await pageText(await fetchPage(`/dashboard/companies/${customer.companyId}`, cookie))).replace(
      / ,/g,
      ",",
    );
    expect(company).toContain("No credit note holds credit: nothing to pay out.");
  });
});

describe("paying out credit held", () => {
  test("on the company's record: the reference is required, another company's note is not found, then it is paid once", async () => {
    const { user: admin, cookie } = await signedIn("admin");
    const { user, order, note, total } = await customerInCredit();
    const path = `/dashboard/companies/${user.companyId}`;
    const post = (fields: Record<string, string>, companyId = user.companyId) =>
      settle(
        companyAction(
          actionArgs(
            postRequest(
              `/dashboard/companies/${companyId}`,
              { intent: "payout", creditNoteId: note.id, orderId: order.id, ...fields },
              { cookie },
            ),
            { id: companyId },
          ),
        ),
      );
    const nothingWritten = async () => {
      expect((await getOrderById(order.id))!.creditNotes[0].payout).toBeNull();
      expect(await LedgerEntry.countDocuments({ _id: `payout:${note.id}` })).toBe(0);
      expect(await Audit.countDocuments({ action: "order.payout", targetId: order.id })).toBe(0);
    };

    await expectFieldError(await post({ reference: "  " }), "reference", "Give the bank transfer's reference");
    await expectFieldError(await post({ reference: "R".repeat(61) }), "reference", /at most 60 characters/);
    await nothingWritten();
    const other = await createUser();
    expect((await post({ reference: "OUT-1" }, other.companyId)).status).toBe(404);
    await nothingWritten();

    const paid = await post({ reference: "OUT-LEDGER-1" });
    expect(paid.status).toBe(302);
    expect(paid.headers.get("Location")).toBe(`${path}#credit-held`);
    expect((await toastOf(paid))?.message).toContain(
      `Payout of ${formatCents(total)} recorded for credit note ${note.number}`,
    );
    expect((await getOrderById(order.id))!.creditNotes[0].payout).toMatchObject({
      reference: "OUT-LEDGER-1",
      by: admin.email,
    });
    expect(await LedgerEntry.countDocuments({ _id: `payout:${note.id}` })).toBe(1);
    const again = await post({ reference: "OUT-LEDGER-2" });
    expect(again.status).toBe(409);
    expect(JSON.stringify(await again.json())).toContain("already paid out");

    const after = await (
      await settle(companyLoader(loaderArgs(getRequest(path, { cookie }), { id: user.companyId })))
    ).json();
    expect(after.owed).toEqual([{ currency: "USD", owesCents: 0, owedCents: 0, balanceCents: 0 }]);
    expect(after.credits).toEqual([]);
  });

  test("Shop Today lists the accounts the shop owes, longest waiting first, and pays a note out from there", async () => {
    const { cookie } = await signedIn("admin");
    const { user, order, note, total, name } = await customerInCredit();
    // Issued long ago (before anything other tests write): it leads the list.
    await LedgerEntry.updateOne({ _id: `credit-note:${note.id}` }, { $set: { at: new Date(Date.UTC(1984, 0, 2)) } });
    const load = async () =>
      (await settle(homeLoader(loaderArgs(getRequest("/dashboard/admin", { cookie }))))).json() as Promise<{
        credit: { total: number; accounts: { accountId: string; name: string; credits: unknown[]; owed: unknown[] }[] };
      }>;

    const home = await load();
    expect(home.credit.total).toBeGreaterThanOrEqual(home.credit.accounts.length);
    expect(home.credit.accounts[0]).toEqual({
      accountId: user.companyId,
      name,
      owed: [{ currency: "USD", owesCents: 0, owedCents: total, balanceCents: -total }],
      credits: [
        expect.objectContaining({ noteId: note.id, number: note.number, orderId: order.id, creditCents: total }),
      ],
    });
    const text = await pageText(await fetchPage("/dashboard/admin", cookie));
    expect(text).toMatch(/Credit to pay out \(\d[\d,]*\)/);
    expect(text).toContain(`${name} ${both(0, total)}`);
    expect(text).toContain(`Bank transfer reference for ${note.number}`);

    const post = (reference: string) =>
      settle(
        homeAction(
          actionArgs(
            postRequest(
              "/dashboard/admin",
              { intent: "payout", creditNoteId: note.id, orderId: order.id, reference },
              { cookie },
            ),
          ),
        ),
      );
    await expectFieldError(await post(""), "reference", "Give the bank transfer's reference");
    expect((await getOrderById(order.id))!.creditNotes[0].payout).toBeNull();

    const paid = await post("OUT-TODAY-1");
    expect(paid.status).toBe(302);
    expect(paid.headers.get("Location")).toBe("/dashboard/admin#credit-to-pay-out");
    expect(await Audit.countDocuments({ action: "order.payout", targetId: order.id })).toBe(1);
    const after = await load();
    expect(after.credit.accounts.map((account) => account.accountId)).not.toContain(user.companyId);
  });
});

describe("the orders' CSV", () => {
  test("ends with the ledger's invoiced, received, credited and open amounts; an order never invoiced leaves them empty", async () => {
    const { cookie } = await signedIn("admin");
    const prefix = `ledger-csv-${tag()}`;
    const customer = await createUser({ email: `${prefix}@example.com` });
    // Another account's: the credit above would otherwise come off it as it is placed.
    const other = await createUser({ email: `${prefix}-b@example.com` });
    const { order } = await paidOrder(100, "bank-transfer", customer);
    const cancelled = await cancelPaidOrderWithCredit(order.id, staff);
    if (!cancelled.ok) throw new Error("not cancelled");
    await postOrderToLedger((await getOrderById(order.id))!);
    const part = await createPart({ availableQuantity: 1_000, minOrderQuantity: 1 });
    const unpaid = await placeOrder({
      lines: [{ partId: part.id, quantity: 5 }],
      phone: "+1 555 0100",
      delivery: { ...DETROIT, line1: "3 Ledger Row" },
      user: other,
    });
    if (!unpaid.ok) throw new Error("not placed");

    const response = await settle(
      ordersCsv(loaderArgs(getRequest(`/dashboard/manageOrders/export?q=${prefix}`, { cookie }))),
    );
    expect(response.status).toBe(200);
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await response.arrayBuffer()).slice(1);
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    const header = Object.keys(rows[0]);
    // The columns before stay where they were: the ledger's come after the last of them.
    expect(header.slice(header.indexOf("Shipped with"))).toEqual([
      "Shipped with",
      "Invoiced (in Currency)",
      "Received (in Currency)",
      "Credited (in Currency)",
      "Open (in Currency)",
      "Currency",
    ]);
    expect(header.slice(0, 3)).toEqual(["Order number", "Placed (UTC)", "Status"]);
    const dollars = (cents: number) => formatCents(cents, { plain: true });
    expect(rows.find((row) => row["Order number"] === order.number)).toMatchObject({
      "Invoiced (in Currency)": dollars(order.totalCents),
      "Received (in Currency)": dollars(order.totalCents),
      "Credited (in Currency)": dollars(order.totalCents),
      // The shop owes the customer the order's total: a negative number, not text.
      "Open (in Currency)": String(-order.totalCents / 100),
    });
    expect(rows.find((row) => row["Order number"] === unpaid.order.number)).toMatchObject({
      "Invoiced (in Currency)": "",
      "Received (in Currency)": "",
      "Credited (in Currency)": "",
      "Open (in Currency)": "",
    });
  });
});

/** An order of 10 parts on account of `customer`'s company, sold in `currency` (a part with a price in it), in the ledger. */
async function onAccountIn(customer: Awaited<ReturnType<typeof createUser>>, currency: Currency) {
  const part = await createPart({ priceCents: 1_000, availableQuantity: 1_000, minOrderQuantity: 1 });
  if (currency !== "USD") await Part.updateOne({ _id: part.id }, { $set: { prices: [{ currency, priceCents: 870 }] } });
  const placed = await placeOrder({
    lines: [{ partId: part.id, quantity: 10 }],
    phone: "+1 555 0100",
    delivery: { ...DETROIT, line1: "4 Ledger Row" },
    user: customer,
    onAccount: { termsDays: 30 },
    payment: "account",
    pricing: { group: null, tax: null, currency },
  });
  if (!placed.ok) throw new Error(`not placed in ${currency}`);
  const order = (await getOrderById(placed.order.id))!;
  await postOrderToLedger(order);
  expect(order.currency).toBe(currency);
  return order;
}

describe("an account in two currencies", () => {
  test("a company's dollar and euro orders: a figure a currency on its record, the lists and its orders, never a sum", async () => {
    const { cookie } = await signedIn("admin");
    const customer = await createUser({ name: "Tess Twocurrency" });
    const name = `Two Currencies ${tag()}`;
    await updateCompanyOf(customer.id, {
      $set: {
        companyName: name,
        nameKey: name.toLowerCase(),
        account: { termsDays: 30, creditLimitCents: 10_000_000, currency: "EUR" },
      },
    });
    const dollars = await onAccountIn(customer, "USD");
    const euros = await onAccountIn(customer, "EUR");
    const usd = formatCents(dollars.totalCents);
    const eur = formatCents(euros.totalCents, { currency: "EUR" });
    const sums = ["USD", "EUR"].map((currency) =>
      formatCents(dollars.totalCents + euros.totalCents, { currency: currency as Currency }),
    );
    const bothLines = [`Owes us ${usd} · We owe them $0.00`, `Owes us ${eur} · We owe them €0.00`];
    const expectApart = (text: string) => {
      for (const line of bothLines) expect(text).toContain(line);
      for (const sum of sums) expect(text).not.toContain(sum);
    };

    // React's markers between text parts read as spaces: " ," is ",".
    const company = (await pageText(await fetchPage(`/dashboard/companies/${customer.companyId}`, cookie))).replace(
      / ,/g,
      ",",
    );
    expectApart(company);
    expect(company).toContain("Currency euros (EUR)");
    expect(company).toContain("Credit limit €100,000.00");
    expect(company).toContain(`${dollars.number} ${dollars.summary}, ${usd}`);
    expect(company).toContain(`${euros.number} ${euros.summary}, ${eur}`);
    expectApart(await pageText(await fetchPage(`/dashboard/companies?q=${encodeURIComponent(name)}`, cookie)));
    expectApart(await pageText(await fetchPage(`/dashboard/allUsers?company=${customer.companyId}`, cookie)));
    const record = await pageText(await fetchPage(`/dashboard/allUsers/${customer.id}`, cookie));
    expectApart(record);
    expect(record).toContain("Currency euros (EUR)");
    expect(record).toContain("Credit limit €100,000.00");

    // Each order's total in its own currency, in Manage Orders and in the customer's My Orders.
    const manage = await pageText(await fetchPage(`/dashboard/manageOrders?company=${customer.companyId}`, cookie));
    const mine = await pageText(await fetchPage("/dashboard/orders", await sessionCookieHeader(customer.id)));
    for (const list of [manage, mine]) {
      expect(list).toContain(usd);
      expect(list).toContain(eur);
      expect(list).not.toContain(formatCents(euros.totalCents));
    }

    // The owner, after the first order: the currency is said, with the way to have it changed, not offered.
    const own = await pageText(await fetchPage("/dashboard/company", await sessionCookieHeader(customer.id)));
    expect(own).toContain("Your company buys in euros (EUR). Ask us to change it");
    expect(own).not.toContain("Save currency");
  });
});
