/**
 * Mustang's validator (Mustang-CLI from Maven Central; scripts/ensure-deps.sh), a third party's judge
 * of Factur-X, over the PDF of every kind of invoice the shop issues and of a credit note as the shop
 * issues it: not one error. And each PDF's metadata names the document it is.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { issueCreditNote } from "~/orders/model/credit-notes.server";
import { formatInvoiceNumber } from "~/orders/model/invoice.server";
import { loader as pdfLoader } from "~/routes/documents.$id.$kind_.pdf";
import { closePdfBrowser } from "~/services/pdf.server";
import { invoiceCases } from "../setup/e-invoice-cases";
import { mustang, run } from "../setup/e-invoice-rules";
import { getRequest, loaderArgs, settle } from "../setup/requests";
import { signedIn } from "./ordering.helpers";

let folder = "";
/** The PDF files by case name: each kind of invoice, and "credit-note". */
const pdfs: Record<string, string> = {};
let creditNoteNumber = "";
let cardInvoiceNumber = "";
let cases: Record<string, string> = {};

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), "e-invoice-mustang-"));
  const { cookie } = await signedIn("admin");
  const save = async (name: string, pathname: string, params: Record<string, string>) => {
    const response = await settle(pdfLoader(loaderArgs(getRequest(pathname, { cookie }), params)));
    expect(response.status, pathname).toBe(200);
    pdfs[name] = path.join(folder, `${name}.pdf`);
    await writeFile(pdfs[name], Buffer.from(await response.arrayBuffer()));
  };
  cases = await invoiceCases();
  for (const [name, id] of Object.entries(cases)) {
    await save(name, `/documents/${id}/invoice/pdf`, { id, kind: "invoice" });
  }
  // The card order cancelled: its credit note, issued as staff issue it, through its own route.
  const issued = await issueCreditNote(cases.card, { reason: "cancellation" }, "staff");
  if (issued.outcome !== "issued") throw new Error(`The credit note was not issued: ${issued.outcome}`);
  creditNoteNumber = issued.note.number;
  cardInvoiceNumber = formatInvoiceNumber(issued.order.invoiceNumber!);
  await save("credit-note", `/documents/${cases.card}/credit-note/pdf?number=${creditNoteNumber}`, {
    id: cases.card,
    kind: "credit-note",
  });
}, 120_000);

afterAll(async () => {
  await closePdfBrowser();
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe("e-invoice PDFs to Mustang", () => {
  test("Mustang finds no error in the PDF of any kind of invoice, nor of a credit note", async () => {
    const files = Object.values(pdfs);
    // Every kind of invoice, and the credit note.
    expect(files).toHaveLength(Object.keys(cases).length + 1);
    const { verdicts, report } = await mustang(files);
    for (const [name, file] of Object.entries(pdfs)) {
      const verdict = verdicts[file];
      expect(verdict, `${name}: Mustang said nothing of it\n${report}`).toBeDefined();
      const errors = verdict.messages.filter((message) => !message.startsWith("warning"));
      expect(errors, `${name}: ${verdict.messages.join("\n")}`).toEqual([]);
      expect(verdict.valid, `${name}: ${verdict.messages.join("\n")}`).toBe(true);
    }
  }, 120_000);

  test("the PDF's title and XMP title name the document: a credit note as a credit note, an invoice as an invoice", async () => {
    const titles = async (file: string) => {
      const [{ stdout: info }, { stdout: meta }] = await Promise.all([
        run("pdfinfo", [file]),
        run("pdfinfo", ["-meta", file]),
      ]);
      const xmpTitle = /<dc:title>\s*<rdf:Alt>\s*<rdf:li[^>]*>([^<]*)<\/rdf:li>/.exec(meta)?.[1];
      return { title: /^Title:\s+(.*)$/m.exec(info)?.[1], xmpTitle };
    };
    expect(creditNoteNumber).toMatch(/^CN-\d+$/);
    const creditTitle = `Credit note ${creditNoteNumber}`;
    expect(await titles(pdfs["credit-note"])).toEqual({ title: creditTitle, xmpTitle: creditTitle });
    const invoiceTitle = `Invoice ${cardInvoiceNumber}`;
    expect(cardInvoiceNumber).toMatch(/^INV-\d+$/);
    expect(await titles(pdfs.card)).toEqual({ title: invoiceTitle, xmpTitle: invoiceTitle });
  });
});
