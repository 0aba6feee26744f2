/**
 * How invoices, pro-formas and packing slips print: read from the PDF the shop serves (its own
 * loader, Chromium's print), page by page with poppler's `pdftotext`. Up to 10 lines fit one A4 and
 * one US Letter page; longer documents break between lines, repeat the table's header, number their
 * pages, and never split the totals, the bank details or a legal note across a break.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, describe, expect, test } from "vitest";
import { TAX_WORDING } from "~/content/tax-rates";
import { Order } from "~/orders/model/schema.server";
import { loader as pdfLoader } from "~/routes/documents.$id.$kind_.pdf";
import { closePdfBrowser } from "~/services/pdf.server";
import { createPart, updateCompanyOf } from "../setup/factories";
import { createOrder } from "../setup/order-factories";
import { getRequest, loaderArgs, settle } from "../setup/requests";
import { signedIn } from "./ordering.helpers";

afterAll(() => closePdfBrowser());

const run = promisify(execFile);

/** The text of each page of a PDF, as poppler reads it (pages end with a form feed). */
async function pagesOf(pdf: Buffer): Promise<string[]> {
  const child = run("pdftotext", ["-layout", "-enc", "UTF-8", "-", "-"], { maxBuffer: 16 * 1024 * 1024 });
  child.child.stdin!.end(pdf);
  const { stdout } = await child;
  return stdout.split("\f").slice(0, -1);
}

/** Whitespace folded, so a sentence wrapped over several lines reads as one. */
const flat = (text: string) => text.replace(/\s+/g, " ");

const REVERSE_CHARGE_WHOLE = `${TAX_WORDING.reverseCharge} Customer VAT number DE811907980; supplier VAT number`;

/**
 * The fullest document the shop prints: an EU business on account (reverse charge, both VAT numbers,
 * the bank block), with a PO number, a shipment and three-line addresses, and `count` lines.
 */
async function fullestOrder(count: number, status: "account" | "unpaid" = "account") {
  const { user: customer } = await signedIn("customer", "Katharina Vogelsang-Brenner");
  await updateCompanyOf(customer.id, {
    $set: {
      companyName: "Nordwerk Fahrzeugteile GmbH",
      taxId: "DE811907980",
      country: "DE",
      billingAddress: "Buchhaltung\nIndustriestraße 114, Halle 7\n70565 Stuttgart\nGermany",
    },
  });
  const part = await createPart({ priceCents: 4_999, name: "Radiator core" });
  const order = await createOrder({
    user: customer,
    status,
    poNumber: "PO-2026-DE-004417",
    lines: Array.from({ length: count }, (_, index) => ({
      part: {
        ...part,
        partNumber: `RC-${7700 + index}`,
        // The line's mark, unbreakable (no-break spaces), ends the name: the row is whole where it is.
        name: `Radiator core, aluminium, two-row, for heavy trucks and buses (${index + 1}\u00a0of\u00a0${count})`,
        priceCents: 4_999 + index,
      },
      quantity: 100 + index,
    })),
  });
  await Order.updateOne(
    { _id: order.id },
    {
      $set: {
        address: "Nordwerk Fahrzeugteile GmbH\nWareneingang, Tor 3\nIndustriestraße 114\n70565 Stuttgart\nGermany",
        netCents: order.totalCents,
        taxCents: 0,
        taxLines: [
          {
            kind: "reverse-charge",
            label: "Reverse charge",
            rate: 0,
            baseCents: order.totalCents,
            amountCents: 0,
            note: TAX_WORDING.reverseCharge,
          },
        ],
        buyerVatNumber: "DE811907980",
        ...(status === "account"
          ? {
              paymentMethod: "account",
              termsDays: 30,
              invoicedAt: new Date(),
              dueAt: new Date(Date.now() + 30 * 86_400_000),
              shipment: { carrier: "dhl", trackingNumber: "JD014600006281234567" },
              shippedAt: new Date(),
            }
          : {}),
      },
    },
  );
  return order;
}

async function printed(orderId: string, kind: string, paper: "a4" | "letter", cookie: string) {
  const response = await settle(
    pdfLoader(
      loaderArgs(getRequest(`/documents/${orderId}/${kind}/pdf?paper=${paper}`, { cookie }), { id: orderId, kind }),
    ),
  );
  expect(response.status).toBe(200);
  return pagesOf(Buffer.from(await response.arrayBuffer()));
}

/** The page a text is on, whole (-1 when no page holds all of it). */
const pageHolding = (pages: string[], text: string) => pages.findIndex((page) => flat(page).includes(text));

describe("documents that print", () => {
  test("a one-line on-account invoice is one page, bank details and the reverse-charge note whole on it", async () => {
    const { cookie } = await signedIn("admin");
    const order = await fullestOrder(1);
    for (const paper of ["a4", "letter"] as const) {
      const pages = await printed(order.id, "invoice", paper, cookie);
      expect(pages, paper).toHaveLength(1);
      const text = flat(pages[0]);
      expect(text).toContain("Page 1 of 1");
      expect(text).toContain("PAY BY BANK TRANSFER");
      expect(text).toMatch(/SWIFT FLCBUS33/);
      expect(text).toContain(`Payment reference ${order.number}`);
      expect(text).toContain(REVERSE_CHARGE_WHOLE);
    }
  });

  test("ten lines fit one page: the invoice, the pro-forma and the packing slip, on A4 and on US Letter", async () => {
    const { cookie } = await signedIn("admin");
    const invoiced = await fullestOrder(10);
    const unpaid = await fullestOrder(10, "unpaid");
    for (const [orderId, kind] of [
      [invoiced.id, "invoice"],
      [invoiced.id, "packing-slip"],
      [unpaid.id, "pro-forma"],
    ] as const) {
      for (const paper of ["a4", "letter"] as const) {
        const pages = await printed(orderId, kind, paper, cookie);
        expect(pages, `${kind} on ${paper}`).toHaveLength(1);
        expect(pages[0]).toContain("RC-7709");
        expect(flat(pages[0])).toContain("Page 1 of 1");
      }
    }
  });

  test("longer documents break between lines, repeat the header, number the pages, and keep each block whole", async () => {
    const { cookie } = await signedIn("admin");
    // From a page full of lines to a page break through each block that follows them.
    const counts = [8, 16, 18, 20, 22, 24, 26, 28, 30, 60];
    const seen = new Set<number>();
    for (const count of counts) {
      const order = await fullestOrder(count);
      for (const paper of ["a4", "letter"] as const) {
        const pages = await printed(order.id, "invoice", paper, cookie);
        const where = `${count} lines on ${paper}`;
        seen.add(pages.length);
        pages.forEach((page, index) => {
          expect(flat(page), where).toContain(`Page ${index + 1} of ${pages.length}`);
          // Every page that carries lines starts them under the table's header.
          if (/RC-77\d\d/.test(page))
            expect(page, where).toMatch(/Part( number)?\s+Part\s+Quantity\s+Unit price\s+Line total/);
        });
        // Each line printed once, whole (its part number and its name on the same page).
        for (let index = 0; index < count; index++) {
          const holding = pages.filter((page) => page.includes(`RC-${7700 + index}`));
          expect(holding, `${where}: line ${index + 1}`).toHaveLength(1);
          expect(flat(holding[0]), where).toContain(`(${index + 1} of ${count})`);
        }
        // The totals on one page, the bank block on one page, the legal note whole on one page.
        expect(
          pages.filter((page) => /Net \$[\d,.]+ Reverse charge \$0\.00 Total due \(USD\)/.test(flat(page))),
          where,
        ).toHaveLength(1);
        const bank = pageHolding(pages, "PAY BY BANK TRANSFER");
        expect(flat(pages[bank] ?? ""), where).toContain(`Payment reference ${order.number}`);
        expect(pageHolding(pages, REVERSE_CHARGE_WHOLE), where).toBeGreaterThanOrEqual(0);
        expect(pageHolding(pages, "Thank you for your order."), where).toBe(pages.length - 1);
      }
    }
    // The counts did make documents of one page and of several.
    expect(seen.has(1)).toBe(true);
    expect(Math.max(...seen)).toBeGreaterThanOrEqual(2);
  }, 90_000); // twenty invoices printed by Chromium, one after another
});
