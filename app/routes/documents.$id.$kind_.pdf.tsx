import type { LoaderFunctionArgs } from "@remix-run/node";
import { documentFileName } from "~/domain/order-document";
import { loadOrderDocument, printDocument } from "~/orders/documents.server";
import { requireUser } from "~/services/guards.server";
import { PdfBusyError } from "~/services/pdf.server";

const PDF_UNAVAILABLE = "The PDF could not be made just now. Please try again, or print the page instead.";
const YOURS_PRINTING = "Your other PDFs are still being made: try again when they are done, or print the page instead.";
const COMPANYS_PRINTING =
  "Your colleagues' PDFs are still being made: try again in a moment, or print the page instead.";

/**
 * The document's PDF, printed on the server from the same markup and CSS as its page (an invoice's
 * is Factur-X: its EN 16931 XML inside). `?paper=a4` for A4.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const data = await loadOrderDocument(request, params.id ?? "", params.kind, { pdf: true });
  const paper = new URL(request.url).searchParams.get("paper")?.toLowerCase() === "a4" ? "A4" : "Letter";
  let pdf: Buffer;
  try {
    pdf = await printDocument(data, paper, { requester: user.id, company: user.companyId });
  } catch (error) {
    const share = error instanceof PdfBusyError ? error.share : null;
    if (!share) context.logger?.error({ err: error }, "PDF failed");
    const message = share === "requester" ? YOURS_PRINTING : share === "company" ? COMPANYS_PRINTING : PDF_UNAVAILABLE;
    return new Response(message, {
      status: 503,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "10", "Cache-Control": "no-store" },
    });
  }
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${documentFileName(data)}"`,
      "Content-Length": String(pdf.length),
      "Cache-Control": "private, no-store",
      "X-Robots-Tag": "noindex",
    },
  });
}
