/**
 * CSV export and import against the real database and the real loaders and actions: the exports
 * (filters carried, every row, Excel-safe, UTF-8 with BOM, admins only), and the stock-and-price
 * import (dry run listing every change and bad line, apply with conditional updates and audit
 * entries, hostile files refused with a 4xx and nothing written).
 */
import { parse } from "csv-parse/sync";
import { describe, expect, test } from "vitest";
import { loader as ordersCsv } from "~/routes/dashboard.manageOrders_.export";
import { loader as productsCsv } from "~/routes/dashboard.manageProducts_.export";
import { action as importAction } from "~/routes/dashboard.manageProducts_.import";
import { loader as priceListsCsv } from "~/routes/dashboard.manageProducts_.priceLists.export";
import { action as priceListsImport } from "~/routes/dashboard.manageProducts_.priceLists.import";
import { Audit } from "~/models/audit.server";
import { checkPriceListFile, importPriceLists } from "~/services/price-list-import.server";
import { Part } from "~/models/part.server";
import { Order } from "~/orders/model/schema.server";
import { createPart, createUser } from "../setup/factories";
import { createOrder } from "../setup/order-factories";
import { actionArgs, getRequest, loaderArgs, settle } from "../setup/requests";
import { signedIn, snapshot, toastOf } from "./ordering.helpers";

const BOM = "\uFEFF";

async function download(
  fn: typeof ordersCsv | typeof productsCsv | typeof priceListsCsv,
  path: string,
  cookie: string,
) {
  return settle(fn(loaderArgs(getRequest(path, { cookie }))));
}

/** The file as Excel gets it: the bytes start with UTF-8's byte-order mark. */
async function rowsOf(response: Response) {
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await response.arrayBuffer());
  expect(text.startsWith(BOM)).toBe(true);
  return parse(text.slice(1), { columns: true }) as Record<string, string>[];
}

describe("CSV export", () => {
  test("orders: the page's filters, every matching order, Excel-safe cells, UTF-8 with a BOM", async () => {
    const { cookie } = await signedIn("admin");
    const tag = Math.random().toString(36).slice(2, 8);
    const customer = await createUser({ name: '=HYPERLINK("http://evil") Zoë', email: `csv-${tag}@example.com` });
    const part = await createPart({ name: "@SUM(A1) Brake Pad Façade", priceCents: 1250 });
    const paid = await createOrder({
      user: customer,
      part,
      quantity: 200,
      status: "paid",
      transactionId: "pi_csv_1",
      poNumber: "PO-4500/17",
      deliveryAddress: {
        name: "Zoë Fischer",
        company: "=Northside Fleet",
        line1: "48 Mill Road",
        line2: "Dock door 3",
        city: "Detroit",
        region: "MI",
        postalCode: "48209",
        country: "US",
      },
    });
    const unpaid = await createOrder({ user: customer, part, quantity: 100 });

    const response = await download(ordersCsv, `/dashboard/manageOrders/export?q=csv-${tag}`, cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(/attachment; filename="partsworks-orders-.*\.csv"/);
    const rows = await rowsOf(response);
    expect(rows.map((row) => row["Order number"]).sort()).toEqual([paid.number, unpaid.number].sort());
    const row = rows.find((r) => r["Order number"] === paid.number)!;
    expect(row).toMatchObject({
      Status: "Pending",
      "Customer name": `'=HYPERLINK("http://evil") Zoë`,
      "Customer email": `csv-${tag}@example.com`,
      Quantity: "200",
      "Total (in Currency)": "2500.00",
      "Paid (in Currency)": "2500.00",
      "Balance (in Currency)": "0.00",
      Currency: "USD",
      Payment: "Paid by card",
      "Transaction id": "pi_csv_1",
      "PO number": "PO-4500/17",
      // The address as printed on one line, then field by field; a formula-like company is defused.
      "Delivery address": "Zoë Fischer, =Northside Fleet, 48 Mill Road, Dock door 3, Detroit, MI 48209, United States",
      "Delivery name": "Zoë Fischer",
      "Delivery company": "'=Northside Fleet",
      "Delivery line 1": "48 Mill Road",
      "Delivery line 2": "Dock door 3",
      "Delivery city": "Detroit",
      "Delivery region": "MI",
      "Delivery postal code": "48209",
      "Delivery country": "US",
    });
    const header = Object.keys(row);
    expect(header.slice(header.indexOf("Delivery address"), header.indexOf("Delivery country") + 1)).toHaveLength(9);
    // An order without a PO number has the column, empty; one placed before addresses had fields
    // keeps its text and leaves the field columns empty.
    expect(rows.find((r) => r["Order number"] === unpaid.number)).toMatchObject({
      "Delivery address": "1 Test Street, Springfield",
      "Delivery line 1": "",
      "Delivery country": "",
      "PO number": "",
      Status: "Unpaid",
      "Balance (in Currency)": "1250.00",
    });
    expect(row.Lines).toContain("@SUM(A1) Brake Pad Façade x 200");

    const onlyPaid = await rowsOf(
      await download(ordersCsv, `/dashboard/manageOrders/export?q=csv-${tag}&status=paid`, cookie),
    );
    expect(onlyPaid.map((r) => r["Order number"])).toEqual([paid.number]);

    const bad = await download(ordersCsv, "/dashboard/manageOrders/export?status=lost", cookie);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/Choose a status from the list/);
  });

  test("orders: each row's amounts in its order's currency, named in the last column", async () => {
    const { cookie } = await signedIn("admin");
    const tag = Math.random().toString(36).slice(2, 8);
    const customer = await createUser({ email: `csv-currency-${tag}@example.com` });
    const part = await createPart({ priceCents: 1_250 });
    const dollars = await createOrder({ user: customer, part, quantity: 100 });
    const euros = await createOrder({ user: customer, part, quantity: 200 });
    await Order.updateOne({ _id: euros.id }, { $set: { currency: "EUR" } });

    const rows = await rowsOf(
      await download(ordersCsv, `/dashboard/manageOrders/export?q=csv-currency-${tag}`, cookie),
    );
    const header = Object.keys(rows[0]);
    // Added last: the columns before keep their places.
    expect(header.at(-1)).toBe("Currency");
    expect(header.indexOf("Order number")).toBe(0);
    expect(header.filter((name) => /USD/.test(name))).toEqual([]);
    const byNumber = new Map(rows.map((row) => [row["Order number"], row]));
    expect(byNumber.get(dollars.number)).toMatchObject({ "Total (in Currency)": "1250.00", Currency: "USD" });
    expect(byNumber.get(euros.number)).toMatchObject({ "Total (in Currency)": "2500.00", Currency: "EUR" });
  });

  test("orders: more orders than a page, all in the file", async () => {
    const { cookie } = await signedIn("admin");
    const tag = Math.random().toString(36).slice(2, 8);
    const customer = await createUser({ email: `many-${tag}@example.com` });
    const part = await createPart();
    for (let i = 0; i < 45; i += 1) await createOrder({ user: customer, part });
    const rows = await rowsOf(await download(ordersCsv, `/dashboard/manageOrders/export?q=many-${tag}`, cookie));
    expect(rows).toHaveLength(45);
  });

  test("products: every part with the columns the import reads back; a formula name is defused", async () => {
    const { cookie } = await signedIn("admin");
    const part = await createPart({ name: "=1+1 Oil Filter", priceCents: 3750, availableQuantity: 640 });
    const response = await download(productsCsv, "/dashboard/manageProducts/export", cookie);
    expect(response.status).toBe(200);
    const rows = await rowsOf(response);
    expect(Object.keys(rows[0])).toEqual([
      "Part number",
      "Name",
      "Category",
      "Brand",
      "Price",
      "Stock",
      "Minimum order",
      "Volume breaks",
      "May be backordered",
      "Restock date",
      "Lead time (days)",
    ]);
    expect(rows.find((row) => row["Part number"] === part.partNumber)).toMatchObject({
      Name: "'=1+1 Oil Filter",
      Price: "37.50", // a price stored with cents, written as every screen writes it
      Stock: "640",
      "Minimum order": "100",
      "Volume breaks": "",
      "May be backordered": "no",
      "Restock date": "",
      "Lead time (days)": "",
    });
  });

  test.each([
    ["orders", ordersCsv, "/dashboard/manageOrders/export"],
    ["products", productsCsv, "/dashboard/manageProducts/export"],
  ] as const)("a customer asking for the %s CSV is signed out and sent to /login", async (_name, fn, path) => {
    const { cookie } = await signedIn();
    const response = await download(fn, path, cookie);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login");
  });
});

const SHOP = process.env.SHOP_URL ?? "http://localhost:3000";

/** Posts the import form as a browser does: multipart, with the file or the dry run's changes. */
function postImport(cookie: string, fields: Record<string, string | File>) {
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) body.append(key, value);
  const request = new Request(new URL("/dashboard/manageProducts/import", SHOP), {
    method: "POST",
    body,
    headers: { Cookie: cookie },
  });
  return settle(importAction(actionArgs(request)));
}

const csvFile = (content: string | Uint8Array, name = "stock.csv") =>
  new File([typeof content === "string" ? content : new Uint8Array(content)], name, { type: "text/csv" });

type Preview = {
  kind: string;
  result: { error?: Record<string, string[]> };
  report: {
    rows: { line: number; partNumber: string; field: string; before: number; after: number }[];
    problems: { line: number; reasons: string[] }[];
    unchanged: number;
  };
  changes: string;
  conflicts?: { line: number; reason: string }[];
};

async function dryRun(cookie: string, content: string | Uint8Array) {
  const response = await postImport(cookie, { intent: "preview", file: csvFile(content) });
  return { status: response.status, data: (await response.json()) as Preview };
}

describe("CSV import of stock and prices", () => {
  test("round trip: export, edit in a spreadsheet, dry run lists every change, apply writes and audits", async () => {
    const { user: admin, cookie } = await signedIn("admin");
    const pad = await createPart({ priceCents: 1200, availableQuantity: 300 });
    const disc = await createPart({ priceCents: 4500, availableQuantity: 80 });
    const exported = await rowsOf(await download(productsCsv, "/dashboard/manageProducts/export", cookie));
    const edited = exported.map((row) =>
      row["Part number"] === pad.partNumber
        ? { ...row, Stock: "1250" }
        : row["Part number"] === disc.partNumber
          ? { ...row, Price: "47", Stock: "80" }
          : row,
    );
    const header = Object.keys(exported[0]);
    const quote = (cell: string) => `"${cell.replace(/"/g, '""')}"`;
    const text = [header, ...edited.map((row) => header.map((key) => row[key]))]
      .map((cells) => cells.map(quote).join(","))
      .join("\r\n");

    const before = await snapshot({ partIds: [pad.id, disc.id] });
    const { status, data } = await dryRun(cookie, `\uFEFF${text}`);
    expect(status).toBe(200);
    expect(await snapshot({ partIds: [pad.id, disc.id] })).toEqual(before);
    const mine = data.report.rows.filter((row) => [pad.partNumber, disc.partNumber].includes(row.partNumber));
    expect(mine.map(({ partNumber, field, before, after }) => ({ partNumber, field, before, after }))).toEqual(
      expect.arrayContaining([
        { partNumber: pad.partNumber, field: "stock", before: 300, after: 1250 },
        { partNumber: disc.partNumber, field: "price", before: 4500, after: 4700 },
      ]),
    );
    expect(mine).toHaveLength(2);
    expect(data.report.problems).toEqual([]);

    const applied = await postImport(cookie, { intent: "apply", changes: data.changes });
    expect(applied.status).toBe(302);
    expect(applied.headers.get("Location")).toBe("/dashboard/manageProducts");
    expect((await toastOf(applied))?.message).toMatch(/^Import applied: \d+ parts? updated$/);
    expect(await Part.findById(pad.id).lean()).toMatchObject({ availableQuantity: 1250, priceCents: 1200 });
    expect(await Part.findById(disc.id).lean()).toMatchObject({ availableQuantity: 80, priceCents: 4700 });
    const [entry, ...more] = await Audit.find({ targetId: pad.id }).lean();
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      action: "part.update",
      actorEmail: admin.email,
      before: { availableQuantity: 300, priceCents: 1200 },
      after: { availableQuantity: 1250, priceCents: 1200 },
    });
  });

  test("every bad line is listed with its line number and reason; valid lines still apply", async () => {
    const { cookie } = await signedIn("admin");
    const good = await createPart({ availableQuantity: 10 });
    const other = await createPart({ availableQuantity: 20, priceCents: 900 });
    const twice = await createPart();
    const lines = [
      "PART NUMBER;Stock;Price",
      `${good.partNumber.toLowerCase()};15;`,
      "NOPE-404;5;",
      `${other.partNumber};1.5;`,
      `${other.partNumber.replace("T-", "T-")}x;;`,
      `=HYPERLINK("http://evil");1;`,
      `${twice.partNumber};-3;`,
      `${twice.partNumber};4;9,99`,
      `${good.partNumber}x;@SUM(1);`,
    ];
    const watched = [good.id, other.id, twice.id];
    const before = await snapshot({ partIds: watched });
    const { status, data } = await dryRun(cookie, lines.join("\n"));
    expect(status).toBe(422);
    expect(await snapshot({ partIds: watched })).toEqual(before);
    expect(data.report.rows).toEqual([expect.objectContaining({ line: 2, field: "stock", before: 10, after: 15 })]);
    const reasons = Object.fromEntries(data.report.problems.map((p) => [p.line, p.reasons.join("; ")]));
    expect(reasons[3]).toMatch(/unknown part number “NOPE-404”/);
    expect(reasons[4]).toMatch(/stock “1.5” is not a whole number/);
    expect(reasons[5]).toMatch(/unknown part number/);
    expect(reasons[6]).toMatch(/looks like a formula/);
    expect(reasons[7]).toMatch(/stock “-3” is negative/);
    expect(reasons[7]).toMatch(/appears more than once in the file \(lines 7, 8\)/);
    expect(reasons[8]).toMatch(/price “9” is not whole dollars|appears more than once/);
    expect(reasons[9]).toMatch(/stock “@SUM\(1\)” looks like a formula/);

    const applied = await postImport(cookie, { intent: "apply", changes: data.changes });
    expect(applied.status).toBe(302);
    expect((await Part.findById(good.id).lean())?.availableQuantity).toBe(15);
    expect(await snapshot({ partIds: [other.id, twice.id] })).toMatchObject({
      watchedParts: before.watchedParts.slice(1),
    });
  });

  test("part numbers written as an ERP writes them (pw1003, PW 1003, an OE number) find their part; two spellings of one part are one line twice", async () => {
    const { cookie } = await signedIn("admin");
    const digits = String(Date.now()).slice(-7);
    const lower = await createPart({ partNumber: `PI-${digits}`, availableQuantity: 10 });
    const spaced = await createPart({ partNumber: `PJ-${digits}`, availableQuantity: 20 });
    const byOe = await createPart({ partNumber: `PK-${digits}`, oeNumbers: [`OEI ${digits}`], availableQuantity: 30 });
    const twice = await createPart({ partNumber: `PL-${digits}`, availableQuantity: 40 });
    const lines = [
      "Part number,Stock",
      `pi${digits},11`,
      `PJ ${digits},21`,
      `oei-${digits},31`,
      `PL-${digits},41`,
      `pl ${digits},42`,
    ];
    const { status, data } = await dryRun(cookie, lines.join("\n"));
    expect(status).toBe(422);
    expect(data.report.rows.map((row) => [row.line, row.partNumber, row.after])).toEqual([
      [2, lower.partNumber, 11],
      [3, spaced.partNumber, 21],
      [4, byOe.partNumber, 31],
    ]);
    const reasons = Object.fromEntries(data.report.problems.map((p) => [p.line, p.reasons.join("; ")]));
    expect(reasons[5]).toMatch(/appears more than once in the file \(lines 5, 6\)/);
    expect(reasons[6]).toMatch(/appears more than once in the file \(lines 5, 6\)/);
    const applied = await postImport(cookie, { intent: "apply", changes: data.changes });
    expect(applied.status).toBe(302);
    expect((await Part.findById(byOe.id).lean())?.availableQuantity).toBe(31);
    expect((await Part.findById(twice.id).lean())?.availableQuantity).toBe(40);
  });

  test("prices are whole dollars: 24.50 is refused with that line's error; a part stored with cents keeps its price", async () => {
    const { cookie } = await signedIn("admin");
    const whole = await createPart({ priceCents: 2000, availableQuantity: 10 });
    const legacy = await createPart({ priceCents: 2450, availableQuantity: 10 });
    const watched = [whole.id, legacy.id];
    const before = await snapshot({ partIds: watched });
    const { status, data } = await dryRun(
      cookie,
      ["part number,stock,price", `${whole.partNumber},15,24.50`, `${legacy.partNumber},40,24.50`].join("\n"),
    );
    expect(status).toBe(422);
    expect(await snapshot({ partIds: watched })).toEqual(before);
    expect(data.report.problems).toEqual([
      {
        line: 2,
        partNumber: whole.partNumber,
        reasons: ["price “24.50” is not whole dollars: prices are whole dollars, such as 24 or 25"],
      },
    ]);
    // The legacy part's price is its own, unchanged: only its stock changes.
    expect(data.report.rows).toEqual([expect.objectContaining({ line: 3, field: "stock", before: 10, after: 40 })]);
    expect((await postImport(cookie, { intent: "apply", changes: data.changes })).status).toBe(302);
    expect(await Part.findById(legacy.id).lean()).toMatchObject({ availableQuantity: 40, priceCents: 2450 });
    expect(await Part.findById(whole.id).lean()).toMatchObject({ availableQuantity: 10, priceCents: 2000 });
    // A forged apply that sets a price with cents is refused whole.
    const forged = JSON.stringify([[whole.id, 2, null, null, 2000, 2450]]);
    expect((await postImport(cookie, { intent: "apply", changes: forged })).status).toBe(400);
    expect((await Part.findById(whole.id).lean())?.priceCents).toBe(2000);
  });

  test("backorders round-trip: the export's backorder columns, edited, dry run, apply, exported again", async () => {
    const { user: admin, cookie } = await signedIn("admin");
    const waits = await createPart({ availableQuantity: 300 });
    const dated = await createPart({ availableQuantity: 50 });
    // Set before today: read back unchanged it passes; typed as a new day it would be refused.
    await Part.updateOne({ _id: dated.id }, { $set: { backorderable: true, restockOn: new Date("2026-01-05") } });
    const exported = await rowsOf(await download(productsCsv, "/dashboard/manageProducts/export", cookie));
    expect(exported.find((row) => row["Part number"] === dated.partNumber)).toMatchObject({
      "May be backordered": "yes",
      "Restock date": "2026-01-05",
      "Lead time (days)": "",
    });
    const edited = exported.map((row) =>
      row["Part number"] === waits.partNumber
        ? { ...row, "May be backordered": "yes", "Restock date": "2027-01-12", "Lead time (days)": "14" }
        : row,
    );
    const header = Object.keys(exported[0]);
    const quote = (cell: string) => `"${cell.replace(/"/g, '""')}"`;
    const text = [header, ...edited.map((row) => header.map((key) => row[key]))]
      .map((cells) => cells.map(quote).join(","))
      .join("\r\n");

    const { status, data } = await dryRun(cookie, `\uFEFF${text}`);
    expect(status).toBe(200);
    expect(data.report.problems).toEqual([]);
    const mine = data.report.rows.filter((row) => [waits.partNumber, dated.partNumber].includes(row.partNumber));
    expect(mine.map(({ partNumber, field, before, after }) => ({ partNumber, field, before, after }))).toEqual([
      {
        partNumber: waits.partNumber,
        field: "backorder",
        before: "no",
        after: "yes, restock 2027-01-12, lead time 14 days",
      },
    ]);
    expect((await Part.findById(waits.id).lean())?.backorderable).toBe(false);

    const applied = await postImport(cookie, { intent: "apply", changes: data.changes });
    expect(applied.status).toBe(302);
    const part = (await Part.findById(waits.id).lean())!;
    expect(part).toMatchObject({ backorderable: true, leadTimeDays: 14, availableQuantity: 300 });
    expect(part.restockOn?.toISOString()).toBe("2027-01-12T00:00:00.000Z");
    expect(await Audit.findOne({ targetId: waits.id }).lean()).toMatchObject({
      action: "part.update",
      actorEmail: admin.email,
      before: { backorderable: false, restockOn: null, leadTimeDays: null },
      after: { backorderable: true, restockOn: "2027-01-12", leadTimeDays: 14 },
    });
    const again = await rowsOf(await download(productsCsv, "/dashboard/manageProducts/export", cookie));
    expect(again.find((row) => row["Part number"] === waits.partNumber)).toMatchObject({
      "May be backordered": "yes",
      "Restock date": "2027-01-12",
      "Lead time (days)": "14",
    });

    // "none" clears a day; "no" stops backorders; an empty cell leaves its field alone.
    const cleared = await dryRun(
      cookie,
      `Part number,May be backordered,Restock date,Lead time (days)\n${waits.partNumber},no,none,`,
    );
    expect(cleared.data.report.rows.map((row) => row.after)).toEqual(["no, lead time 14 days"]);
    await postImport(cookie, { intent: "apply", changes: cleared.data.changes });
    expect(await Part.findById(waits.id).lean()).toMatchObject({
      backorderable: false,
      restockOn: null,
      leadTimeDays: 14,
    });
  });

  test("a bad backorder cell is that line's error naming its column; the file's valid lines alone may apply", async () => {
    const { cookie } = await signedIn("admin");
    const parts = await Promise.all(Array.from({ length: 6 }, () => createPart({ availableQuantity: 40 })));
    const [good, feb30, words, past, lead, yesish] = parts;
    const lines = [
      "Part number,Stock,May be backordered,Restock date,Lead time (days)",
      `${good.partNumber},,yes,2027-03-01,`,
      `${feb30.partNumber},41,yes,2027-02-30,`,
      `${words.partNumber},,yes,12/01/2027,`,
      `${past.partNumber},,yes,2020-01-01,`,
      `${lead.partNumber},,yes,,400`,
      `${yesish.partNumber},,perhaps,,`,
    ];
    const ids = parts.map((part) => part.id);
    const before = await snapshot({ partIds: ids });
    const stored = async () =>
      (await Part.find({ _id: { $in: ids } }, { backorderable: 1, restockOn: 1, leadTimeDays: 1 }).lean()).map(
        (doc) => [doc.backorderable ?? false, doc.restockOn ?? null, doc.leadTimeDays ?? null],
      );
    const policiesBefore = await stored();
    const { status, data } = await dryRun(cookie, lines.join("\n"));
    expect(status).toBe(422);
    expect(data.report.problems).toEqual([
      {
        line: 3,
        partNumber: feb30.partNumber,
        reasons: ["Restock date “2027-02-30” is not a real date: write it as 2027-01-12, or none"],
      },
      {
        line: 4,
        partNumber: words.partNumber,
        reasons: ["Restock date “12/01/2027” is not a real date: write it as 2027-01-12, or none"],
      },
      {
        line: 5,
        partNumber: past.partNumber,
        reasons: ["Restock date “2020-01-01” is in the past: give the day stock is now expected, or none"],
      },
      {
        line: 6,
        partNumber: lead.partNumber,
        reasons: ["Lead time (days) “400” is not a whole number of days from 1 to 365, or none"],
      },
      { line: 7, partNumber: yesish.partNumber, reasons: ["May be backordered “perhaps” is not yes or no"] },
    ]);
    // The dry run wrote nothing, and the line with the bad day is not applied at all (its stock neither).
    expect(await snapshot({ partIds: ids })).toEqual(before);
    expect(await stored()).toEqual(policiesBefore);
    expect(data.report.rows.map((row) => row.partNumber)).toEqual([good.partNumber]);
    await postImport(cookie, { intent: "apply", changes: data.changes });
    expect(await Part.findById(feb30.id).lean()).toMatchObject({ availableQuantity: 40, backorderable: false });
    expect((await Part.findById(good.id).lean())?.backorderable).toBe(true);

    // A forged Apply with a day off the calendar, or in the past, is refused whole.
    for (const restockOn of ["2027-02-30", "2020-01-01"]) {
      const forged = JSON.stringify([
        [
          feb30.id,
          3,
          null,
          null,
          null,
          null,
          null,
          null,
          { allowed: false, restockOn: null, leadTimeDays: null },
          { allowed: true, restockOn, leadTimeDays: null },
        ],
      ]);
      expect((await postImport(cookie, { intent: "apply", changes: forged })).status).toBe(400);
    }
    expect((await Part.findById(feb30.id).lean())?.backorderable).toBe(false);
  });

  test("a change made after the dry run is reported, not overwritten", async () => {
    const { cookie } = await signedIn("admin");
    const part = await createPart({ availableQuantity: 100 });
    const { data } = await dryRun(cookie, `part number,stock\n${part.partNumber},500`);
    await Part.updateOne({ _id: part.id }, { $set: { availableQuantity: 60 } }); // an order meanwhile
    const response = await postImport(cookie, { intent: "apply", changes: data.changes });
    expect(response.status).toBe(409);
    const body = (await response.json()) as Preview;
    expect(body.conflicts?.[0].reason).toMatch(/changed since the dry run \(now stock 60/);
    expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(60);
    expect(await Audit.countDocuments({ targetId: part.id })).toBe(0);
  });

  test("forged apply payloads are refused with a 400 and change nothing", async () => {
    const { cookie } = await signedIn("admin");
    const part = await createPart({ availableQuantity: 100 });
    const before = await snapshot({ partIds: [part.id] });
    for (const changes of [
      "not json",
      JSON.stringify([[part.id, 2, 100, -5, null, null]]),
      JSON.stringify([
        [part.id, 2, 100, 5, null, null],
        [part.id, 3, 100, 6, null, null],
      ]),
      JSON.stringify([[{ $gt: "" }, 2, 100, 5, null, null]]),
      "[]",
    ]) {
      const response = await postImport(cookie, { intent: "apply", changes });
      expect(response.status).toBe(400);
    }
    expect(await snapshot({ partIds: [part.id] })).toEqual(before);
  });

  test.each([
    ["an empty file", "", 400, /The file is empty/],
    ["a header only", "part number,stock\n", 422, /a header but no lines/],
    ["no part number column", "sku,stock\nPW-1001,5", 422, /must name the columns: “part number”/],
    [
      "no stock, price or backorder column",
      "part number,name\nPW-1001,Pad",
      422,
      /“stock”, “price”, “volume breaks” and\/or the backorder columns/,
    ],
    ["Latin-1 bytes", new Uint8Array([...Buffer.from("part number,stock\nPW-1001,5\nCaf"), 0xe9]), 422, /not UTF-8/],
    [
      "a PNG image",
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
      415,
      /not a CSV file/,
    ],
    ["an unclosed quote", 'part number,stock\n"PW-1001,5', 422, /could not be read as CSV/],
  ] as const)("%s is refused with a clear message and nothing written", async (_name, content, status, message) => {
    const { cookie } = await signedIn("admin");
    const before = await snapshot();
    const response = await postImport(cookie, { intent: "preview", file: csvFile(content as string | Uint8Array) });
    expect(response.status).toBe(status);
    const data = (await response.json()) as Preview;
    expect(data.result.error?.file?.join(" ")).toMatch(message);
    expect(await snapshot()).toEqual(before);
  });

  test("100,000 lines are refused above the 5,000-line limit, quickly, nothing written", async () => {
    const { cookie } = await signedIn("admin");
    const part = await createPart({ availableQuantity: 7 });
    const body = `part number,stock\n${`${part.partNumber},1\n`.repeat(100_000)}`;
    const started = Date.now();
    const response = await postImport(cookie, { intent: "preview", file: csvFile(body) });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(response.status).toBe(413);
    const data = (await response.json()) as Preview;
    expect(data.result.error?.file?.join(" ")).toMatch(/more than 5,000 lines|larger than/);
    expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(7);
  });

  test("a customer posting an import is signed out and nothing changes", async () => {
    const { cookie } = await signedIn();
    const part = await createPart({ availableQuantity: 100 });
    const response = await postImport(cookie, {
      intent: "apply",
      changes: JSON.stringify([[part.id, 2, 100, 0, null, null]]),
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login");
    expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(100);
  });
});

describe("volume breaks in the products CSV", () => {
  test("the import's dry run lists a change of breaks and refuses breaks out of order; apply writes the valid one", async () => {
    const { cookie } = await signedIn("admin");
    const good = await createPart({ priceCents: 2000, availableQuantity: 100 });
    const bad = await createPart({ priceCents: 2000, availableQuantity: 100 });
    const csv = `Part number,Volume breaks\n${good.partNumber},500:-5%;1000:15.00\n${bad.partNumber},1000:-10%;500:-5%\n`;
    const preview = await postImport(cookie, {
      intent: "preview",
      file: new File([csv], "parts.csv", { type: "text/csv" }),
    });
    expect(preview.status).toBe(422);
    const body = (await preview.json()) as {
      report: { rows: { field: string; after: string }[]; problems: { reasons: string[] }[] };
      changes: string;
    };
    expect(body.report.rows).toEqual([expect.objectContaining({ field: "breaks", after: "500:-5%;1000:15.00" })]);
    expect(body.report.problems[0].reasons.join(" ")).toMatch(/smallest quantity up/);
    expect((await Part.findById(bad.id).lean())?.volumeBreaks ?? []).toEqual([]);
    const applied = await postImport(cookie, { intent: "apply", changes: body.changes });
    expect(applied.status).toBe(302);
    const saved = await Part.findById(good.id).lean();
    expect(saved?.volumeBreaks?.map((item) => [item.minQuantity, item.percentOff, item.unitPriceCents])).toEqual([
      [500, 5, null],
      [1000, null, 1500],
    ]);
  });
});

describe("price lists CSV (part_number, currency, price, breaks)", () => {
  const PATH = "/dashboard/manageProducts/priceLists/import";

  function postPriceLists(cookie: string, content: string) {
    const body = new FormData();
    body.append("file", csvFile(content, "price-lists.csv"));
    const request = new Request(new URL(PATH, SHOP), { method: "POST", body, headers: { Cookie: cookie } });
    return settle(priceListsImport(actionArgs(request)));
  }

  const toCsv = (rows: Record<string, string>[]) => {
    const header = ["part_number", "currency", "price", "breaks"];
    const quote = (cell: string) => `"${cell.replace(/"/g, '""')}"`;
    return [header, ...rows.map((row) => header.map((key) => row[key]))]
      .map((cells) => cells.map(quote).join(","))
      .join("\r\n");
  };

  test("round trip: a line per part and currency; edited in a spreadsheet and uploaded, every list is set, audited", async () => {
    const { user: admin, cookie } = await signedIn("admin");
    const part = await createPart({
      priceCents: 2500,
      volumeBreaks: [{ minQuantity: 500, percentOff: 5, unitPriceCents: null }],
    });
    await Part.updateOne(
      { _id: part.id },
      {
        $set: {
          prices: [
            {
              currency: "GBP",
              priceCents: 2100,
              volumeBreaks: [{ minQuantity: 500, percentOff: null, unitPriceCents: 2000 }],
            },
          ],
        },
      },
    );
    const response = await download(priceListsCsv, "/dashboard/manageProducts/priceLists/export", cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toMatch(
      /attachment; filename="partsworks-price-lists-.*\.csv"/,
    );
    const exported = await rowsOf(response);
    expect(Object.keys(exported[0])).toEqual(["part_number", "currency", "price", "breaks"]);
    expect(exported.filter((row) => row.part_number === part.partNumber)).toEqual([
      { part_number: part.partNumber, currency: "USD", price: "25.00", breaks: "500:-5%" },
      { part_number: part.partNumber, currency: "EUR", price: "", breaks: "" },
      { part_number: part.partNumber, currency: "GBP", price: "21.00", breaks: "500:20.00" },
    ]);

    // The file as exported changes nothing.
    const same = await postPriceLists(cookie, `\uFEFF${toCsv(exported)}`);
    expect(same.status).toBe(200);
    expect(((await same.json()) as { kind: string }).kind).toBe("unchanged");

    // Euros added with breaks, pounds taken away, the dollar price raised.
    const edited = exported.map((row) =>
      row.part_number !== part.partNumber
        ? row
        : row.currency === "EUR"
          ? { ...row, price: "23", breaks: "500:-5%;1000:€20.50" }
          : row.currency === "GBP"
            ? { ...row, price: "", breaks: "" }
            : { ...row, price: "26" },
    );
    const applied = await postPriceLists(cookie, toCsv(edited));
    expect(applied.status).toBe(302);
    expect(applied.headers.get("Location")).toBe("/dashboard/manageProducts");
    expect((await toastOf(applied))?.message).toMatch(/^Price lists imported: 1 part changed/);
    const saved = await Part.findById(part.id).lean();
    expect(saved).toMatchObject({ priceCents: 2600, volumeBreaks: [{ minQuantity: 500, percentOff: 5 }] });
    expect(saved?.prices).toMatchObject([
      {
        currency: "EUR",
        priceCents: 2300,
        volumeBreaks: [
          { minQuantity: 500, percentOff: 5, unitPriceCents: null },
          { minQuantity: 1000, percentOff: null, unitPriceCents: 2050 },
        ],
      },
    ]);
    expect(saved?.prices).toHaveLength(1);
    expect(await Audit.find({ targetId: part.id }).lean()).toMatchObject([
      {
        action: "part.update",
        actorEmail: admin.email,
        before: { priceCents: 2500, pricesEUR: null, pricesGBP: "£21.00, breaks 500:20.00" },
        after: { priceCents: 2600, pricesEUR: "€23.00, breaks 500:-5%;1000:20.50", pricesGBP: null },
      },
    ]);
    const again = await rowsOf(await download(priceListsCsv, "/dashboard/manageProducts/priceLists/export", cookie));
    expect(again.filter((row) => row.part_number === part.partNumber).map((row) => row.price)).toEqual([
      "26.00",
      "23.00",
      "",
    ]);
  });

  test("one bad line refuses the whole file: every bad line named with its number and reason, nothing written", async () => {
    const { cookie } = await signedIn("admin");
    const good = await createPart({ priceCents: 2000 });
    const other = await createPart({ priceCents: 3000 });
    const lines = [
      "part_number;currency;price;breaks",
      `${good.partNumber};EUR;19;500:-5%`,
      `${other.partNumber};EUR;22.50;`,
      `${other.partNumber};GBP;20;500:€19`,
      `${other.partNumber};USD;;`,
      `${good.partNumber};CHF;20;`,
      "NOPE-404;EUR;10;",
      `${good.partNumber};GBP;;500:-5%`,
      `${other.partNumber};GBP;21;500:£22`,
      `=HYPERLINK("x");EUR;1;`,
    ];
    const before = await snapshot({ partIds: [good.id, other.id] });
    const auditsBefore = await Audit.countDocuments({ targetId: { $in: [good.id, other.id] } });
    const response = await postPriceLists(cookie, lines.join("\n"));
    expect(response.status).toBe(422);
    const body = (await response.json()) as { problems: { line: number; reasons: string[] }[] };
    const reasons = Object.fromEntries(body.problems.map((p) => [p.line, p.reasons.join("; ")]));
    expect(Object.keys(reasons).map(Number)).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
    expect(reasons[3]).toMatch(/price “22.50” is not whole euros/);
    expect(reasons[4]).toMatch(/nor a price \(£12.50\)/);
    expect(reasons[4]).toMatch(/appears more than once \(lines 4, 9\)/);
    expect(reasons[5]).toMatch(/a part always has a price in US dollars/);
    expect(reasons[6]).toMatch(/currency “CHF” is not one the shop sells in/);
    expect(reasons[7]).toMatch(/unknown part number “NOPE-404”/);
    expect(reasons[8]).toMatch(/breaks in pounds sterling need a price in pounds sterling/);
    expect(reasons[9]).toMatch(/above the list price \(£21.00\)/);
    expect(reasons[10]).toMatch(/looks like a formula/);
    // Line 2 was good, and is not written either.
    expect(await snapshot({ partIds: [good.id, other.id] })).toEqual(before);
    expect((await Part.findById(good.id).lean())?.prices ?? []).toEqual([]);
    expect(await Audit.countDocuments({ targetId: { $in: [good.id, other.id] } })).toBe(auditsBefore);
  });

  test("a part changed by someone else after the check stops the import: the parts already written are put back", async () => {
    const { user: admin } = await signedIn("admin");
    const first = await createPart({ priceCents: 2000 });
    const second = await createPart({ priceCents: 3000 });
    const file = csvFile(`part_number,currency,price\n${first.partNumber},EUR,18\n${second.partNumber},EUR,27\n`);
    const checked = await checkPriceListFile(file);
    if (!checked.ok) throw new Error("the file is good");
    expect(checked.changes.map((change) => change.partNumber)).toEqual([first.partNumber, second.partNumber]);
    // Another admin sets the second part's euro price between the check and the write.
    await Part.updateOne({ _id: second.id }, { $set: { prices: [{ currency: "EUR", priceCents: 2900 }] } });
    const outcome = await importPriceLists(checked.changes, { actor: { id: admin.id, email: admin.email } });
    expect(outcome).toEqual({ ok: false, conflict: { line: 3, partNumber: second.partNumber, reason: "changed" } });
    expect((await Part.findById(first.id).lean())?.prices ?? []).toEqual([]);
    expect((await Part.findById(second.id).lean())?.prices).toMatchObject([{ currency: "EUR", priceCents: 2900 }]);
    expect(await Audit.countDocuments({ targetId: { $in: [first.id, second.id] } })).toBe(0);
  });

  test("a file without the required columns, or not a CSV, is refused whole", async () => {
    const { cookie } = await signedIn("admin");
    const noCurrency = await postPriceLists(cookie, "part_number,price\nPW-1001,12\n");
    expect(noCurrency.status).toBe(422);
    expect(JSON.stringify(await noCurrency.json())).toMatch(/must name the columns part_number, currency and price/);
    const binary = await postPriceLists(cookie, "part_number,currency,price\u0000\n");
    expect(binary.status).toBe(415);
  });

  test("a customer posting price lists is signed out and nothing changes", async () => {
    const { cookie } = await signedIn();
    const part = await createPart({ priceCents: 2000 });
    const response = await postPriceLists(cookie, `part_number,currency,price\n${part.partNumber},EUR,18\n`);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login");
    expect((await Part.findById(part.id).lean())?.prices ?? []).toEqual([]);
    // Signed out by that post: another customer asks for the file.
    const other = await signedIn();
    const csv = await download(priceListsCsv, "/dashboard/manageProducts/priceLists/export", other.cookie);
    expect(csv.status).toBe(302);
    expect(csv.headers.get("Location")).toBe("/login");
  });
});
