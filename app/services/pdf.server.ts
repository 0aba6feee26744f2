/**
 * PDFs of the shop's own HTML (invoices, pro-formas, packing slips), printed by Playwright's
 * `page.pdf()` in Debian's Chromium. One browser for the process, launched at the first PDF and
 * closed on shutdown; each PDF gets its own context (no JavaScript, no network) and a time limit.
 */
import type { Browser } from "playwright-core";
import { PLAYWRIGHT_CHROMIUM_ARGS } from "../../shared/chromium";
import { getEnv } from "./env.server";

export const PDF_TIMEOUT_MS = 20_000;
/** PDFs printed at once (each a Chromium page); more wait in line, up to PDF_QUEUE, then are refused. */
export const PDF_CONCURRENCY = 2;
export const PDF_QUEUE = 6;
/**
 * One person's share: PDFs of theirs printing or waiting at once. Below the whole line
 * (PDF_CONCURRENCY + PDF_QUEUE), so one person asking for many cannot leave everyone else a 503.
 */
export const PDF_PER_REQUESTER = 2;
/**
 * One company's share, all its people together: half the line, so the members of one company
 * (each within their own share) cannot take the whole line either.
 */
export const PDF_PER_COMPANY = (PDF_CONCURRENCY + PDF_QUEUE) / 2;

/** Whose share was used up: the requester's own, or their company's. */
export type PdfShare = "requester" | "company";

/**
 * Too many PDFs asked for at once (by everyone, by this requester, or by their company): the route
 * answers 503 with Retry-After.
 */
export class PdfBusyError extends Error {
  constructor(readonly share: PdfShare | null = null) {
    super(
      share === "requester"
        ? "This requester has PDFs printing already"
        : share === "company"
          ? "This requester's company has PDFs printing already"
          : "Too many PDFs are being printed just now",
    );
  }

  /** The refusal is about the requester's (or their company's) own PDFs, not everyone's. */
  get mine() {
    return this.share !== null;
  }
}

// A few lines of counting instead of a queue package: one process-wide cap with a bounded line.
let printing = 0;
const waiting: (() => void)[] = [];
/** PDFs each requester, and each company, has printing or waiting (entries go when they reach zero). */
const inFlight = new Map<string, number>();
const inFlightByCompany = new Map<string, number>();

function countUp(counts: Map<string, number>, key: string | undefined) {
  if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
}

function countDown(counts: Map<string, number>, key: string | undefined) {
  if (!key) return;
  const left = (counts.get(key) ?? 1) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}

async function takeTurn() {
  if (printing < PDF_CONCURRENCY) {
    printing++;
    return;
  }
  if (waiting.length >= PDF_QUEUE) throw new PdfBusyError();
  // The turn passes straight from the finishing PDF to the next in line (printing stays counted).
  await new Promise<void>((resolve) => waiting.push(resolve));
}

function endTurn() {
  const next = waiting.shift();
  if (next) next();
  else printing--;
}

/** PDFs printing now and waiting in line in this process (/metrics). */
export function pdfQueue() {
  return { printing, waiting: waiting.length };
}

export type PaperSize = "A4" | "Letter";

let browser: Promise<Browser> | null = null;
let shutdownHooked = false;

function getBrowser() {
  if (!browser) {
    // Loaded at the first PDF: playwright-core is a third of a shop's start otherwise.
    const launching = import("playwright-core")
      .then(({ chromium }) =>
        chromium.launch({
          executablePath: getEnv().CHROME_PATH,
          args: PLAYWRIGHT_CHROMIUM_ARGS,
          // The server's own shutdown closes the browser; Playwright's SIGINT handler would exit the
          // process before requests in flight finish.
          handleSIGINT: false,
          handleSIGTERM: false,
          handleSIGHUP: false,
          timeout: PDF_TIMEOUT_MS,
        }),
      )
      .then((launched) => {
        launched.on("disconnected", () => {
          if (browser === launching) browser = null;
        });
        return launched;
      });
    launching.catch(() => {
      if (browser === launching) browser = null;
    });
    browser = launching;
    if (!shutdownHooked) {
      shutdownHooked = true;
      for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void closePdfBrowser());
    }
  }
  return browser;
}

/** Closes the browser, if one was launched (shutdown, and tests). */
export async function closePdfBrowser() {
  const current = browser;
  browser = null;
  if (current) await current.then((launched) => launched.close()).catch(() => undefined);
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`The PDF took longer than ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * A PDF of a complete HTML document that needs nothing from the network. At most PDF_CONCURRENCY
 * print at once; PdfBusyError when PDF_QUEUE more already wait, when `requester` (a user's id) has
 * PDF_PER_REQUESTER of theirs printing or waiting, or when `company` (that user's company) has
 * PDF_PER_COMPANY.
 */
export async function htmlToPdf(
  html: string,
  paper: PaperSize = "Letter",
  { requester, company }: { requester?: string; company?: string } = {},
): Promise<Buffer> {
  if (requester && (inFlight.get(requester) ?? 0) >= PDF_PER_REQUESTER) throw new PdfBusyError("requester");
  if (company && (inFlightByCompany.get(company) ?? 0) >= PDF_PER_COMPANY) throw new PdfBusyError("company");
  countUp(inFlight, requester);
  countUp(inFlightByCompany, company);
  try {
    await takeTurn();
    try {
      return await printPdf(html, paper);
    } finally {
      endTurn();
    }
  } finally {
    countDown(inFlight, requester);
    countDown(inFlightByCompany, company);
  }
}

async function printPdf(html: string, paper: PaperSize): Promise<Buffer> {
  const launched = await withTimeout(getBrowser(), PDF_TIMEOUT_MS);
  const context = await launched.newContext({ javaScriptEnabled: false });
  try {
    const work = (async () => {
      const page = await context.newPage();
      page.setDefaultTimeout(PDF_TIMEOUT_MS);
      await page.route("**/*", (route) => route.abort());
      await page.setContent(html, { waitUntil: "load" });
      return page.pdf({
        format: paper,
        margin: { top: "15mm", right: "15mm", bottom: "15mm", left: "15mm" },
        printBackground: false,
      });
    })();
    return await withTimeout(work, PDF_TIMEOUT_MS);
  } finally {
    await context.close().catch(() => undefined);
  }
}
