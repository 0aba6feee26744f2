import { parse } from "csv-parse/sync";
import { Part } from "~/models/part.server";
import { createPart } from "../setup/factories";
import { expect, test } from "./fixtures";

test("an admin exports the products, edits the stock and backorders in the file, checks it in a dry run and applies it", async ({
  page,
  login,
}) => {
  test.slow(); // a build of the CSV and two form posts on a small shared machine
  await login({ role: "admin" });
  const part = await createPart({ availableQuantity: 300, priceCents: 1200 });
  const other = await createPart({ availableQuantity: 40 });

  await page.goto("/dashboard/manageProducts");
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download CSV of all products" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^partsworks-products-\d{4}-\d{2}-\d{2}\.csv$/);
  const path = await download.path();
  const { readFile } = await import("node:fs/promises");
  const bytes = await readFile(path);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const rows = parse(bytes.subarray(3).toString("utf8"), { columns: true }) as Record<string, string>[];
  const mine = rows.find((row) => row["Part number"] === part.partNumber)!;
  expect(mine).toMatchObject({ Price: "12.00", Stock: "300", "May be backordered": "no", "Restock date": "" });
  const theirs = rows.find((row) => row["Part number"] === other.partNumber)!;

  // The admin keeps two lines: changes the stock and lets the part be backordered until a restock day;
  // on the other line a day that is not on the calendar.
  const header = Object.keys(mine);
  const changed: Record<string, string> = {
    ...mine,
    Stock: "1250",
    "May be backordered": "yes",
    "Restock date": "2027-01-12",
  };
  const badDay: Record<string, string> = { ...theirs, "May be backordered": "yes", "Restock date": "2027-02-30" };
  const edited = [header, header.map((key) => changed[key]), header.map((key) => badDay[key])]
    .map((cells) => cells.map((cell) => `"${cell.replace(/"/g, '""')}"`).join(","))
    .join("\r\n");

  await page.getByRole("link", { name: "Import stock and prices from CSV" }).click();
  await expect(page.getByRole("heading", { name: "Import stock and prices" })).toBeVisible();
  await page
    .getByLabel("CSV file")
    .setInputFiles({ name: "stock.csv", mimeType: "text/csv", buffer: Buffer.from(edited) });
  await page.getByRole("button", { name: "Check the file (dry run)" }).click();

  await expect(page.getByRole("heading", { name: "Dry run: nothing is written yet" })).toBeVisible();
  const changes = page.getByTestId("dry-run-changes");
  await expect(changes).toContainText(part.partNumber);
  await expect(changes).toContainText("300 → 1,250");
  await expect(changes.getByRole("row").filter({ hasText: "Backorders" })).toContainText(
    "no → yes, restock 2027-01-12",
  );
  await expect(page.getByTestId("dry-run-problems")).toHaveText(
    `Line 3: Restock date “2027-02-30” is not a real date: write it as 2027-01-12, or none`,
  );
  expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(300);

  await page.getByRole("button", { name: "Apply 2 changes" }).click();
  await expect(page).toHaveURL(/\/dashboard\/manageProducts$/);
  await expect(page.getByTestId("toast")).toContainText("Import applied: 1 part updated");
  expect(await Part.findById(part.id).lean()).toMatchObject({ availableQuantity: 1250, backorderable: true });
  expect(await Part.findById(other.id).lean()).toMatchObject({ availableQuantity: 40, backorderable: false });
});

test("the import finds parts written as an ERP writes them: pw1003, PW 1003 and an OE number", async ({
  page,
  login,
}) => {
  await login({ role: "admin" });
  const digits = String(Date.now()).slice(-7);
  const lower = await createPart({ partNumber: `PX-${digits}`, availableQuantity: 10 });
  const spaced = await createPart({ partNumber: `PY-${digits}`, availableQuantity: 20 });
  const byOe = await createPart({ partNumber: `PZ-${digits}`, oeNumbers: [`OEX ${digits}`], availableQuantity: 30 });
  const file = ["Part number,Stock", `px${digits},11`, `PY ${digits},21`, `oex-${digits},31`].join("\r\n");

  await page.goto("/dashboard/manageProducts/import");
  await page.getByLabel("CSV file").setInputFiles({ name: "erp.csv", mimeType: "text/csv", buffer: Buffer.from(file) });
  await page.getByRole("button", { name: "Check the file (dry run)" }).click();
  const changes = page.getByTestId("dry-run-changes");
  for (const [part, change] of [
    [lower, "10 → 11"],
    [spaced, "20 → 21"],
    [byOe, "30 → 31"],
  ] as const) {
    await expect(changes.getByRole("row").filter({ hasText: part.partNumber })).toContainText(change);
  }
  await page.getByRole("button", { name: "Apply 3 changes" }).click();
  await expect(page.getByTestId("toast")).toContainText("Import applied: 3 parts updated");
  expect((await Part.findById(byOe.id).lean())?.availableQuantity).toBe(31);
});
