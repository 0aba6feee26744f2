import type { LoaderFunctionArgs } from "@remix-run/node";
import { printQuote, QUOTE_DOCUMENT_NOT_FOUND, quoteDocumentFor, quoteFileName } from "~/orders/quote-document.server";
import { requireUser } from "~/services/guards.server";
import { PdfBusyError } from "~/services/pdf.server";

const PDF_UNAVAILABLE = "The PDF could not be made just now. Please try again, or print the page instead.";
const PDF_BUSY = "Other PDFs are still being made: try again in a moment, or print the page instead.";

/** The quotation as a PDF, printed from the same markup and CSS as its page. `?paper=a4` for A4. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const quotation = await quoteDocumentFor(user, params.id ?? "", params.version);
  if (!quotation) throw new Response(QUOTE_DOCUMENT_NOT_FOUND, { status: 404 });
  const paper = new URL(request.url).searchParams.get("paper")?.toLowerCase() === "a4" ? "A4" : "Letter";
  let pdf: Buffer;
  try {
    pdf = await printQuote(quotation, paper, { requester: user.id, company: user.companyId ?? undefined });
  } catch (error) {
    if (!(error instanceof PdfBusyError)) context.logger?.error({ err: error }, "PDF failed");
    return new Response(error instanceof PdfBusyError ? PDF_BUSY : PDF_UNAVAILABLE, {
      status: 503,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "10", "Cache-Control": "no-store" },
    });
  }
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${quoteFileName(quotation)}"`,
      "Content-Length": String(pdf.length),
      "Cache-Control": "private, no-store",
      "X-Robots-Tag": "noindex",
    },
  });
}
