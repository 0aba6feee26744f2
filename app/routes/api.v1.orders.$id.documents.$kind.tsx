import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { documentFileName } from "~/domain/order-document";
import { apiCall, methodNotAllowed, notFound, problem } from "~/services/api.server";
import { orderDocumentFor, printDocument, ublResponse } from "~/orders/documents.server";
import { PdfBusyError } from "~/services/pdf.server";

/**
 * GET /api/v1/orders/{id}/documents/{invoice|pro-forma|ubl|credit-note|credit-note-ubl}: the PDF the order's
 * page offers (an invoice's or a credit note's with its Factur-X XML inside), or the invoice or credit note
 * (?number=CN-…) as UBL 2.1 (EN 16931).
 */
export async function loader(args: LoaderFunctionArgs) {
  return apiCall(args, "read", async ({ user }) => {
    const kind = args.params.kind;
    if (
      kind !== "invoice" &&
      kind !== "pro-forma" &&
      kind !== "ubl" &&
      kind !== "credit-note" &&
      kind !== "credit-note-ubl"
    )
      throw notFound("Documents are invoice, pro-forma, ubl, credit-note and credit-note-ubl.");
    // A credit note is named by its number: ?number=CN-000001.
    const creditNote = new URL(args.request.url).searchParams.get("number");
    const asked = kind === "ubl" ? "invoice" : kind === "credit-note-ubl" ? "credit-note" : kind;
    const found = await orderDocumentFor(user, args.params.id ?? "", asked, { creditNote });
    if (!found.ok) {
      if (found.instead)
        return problem(409, `This order has a ${found.instead} instead.`, { extra: { instead: found.instead } });
      throw notFound("No such order in your account, or it has no documents.");
    }
    if (kind === "ubl" || kind === "credit-note-ubl") return ublResponse(found.data);
    let pdf: Buffer;
    try {
      pdf = await printDocument(found.data, "Letter", { requester: user.id, company: user.companyId });
    } catch (error) {
      const share = error instanceof PdfBusyError ? error.share : null;
      if (!share) args.context.logger?.error({ err: error }, "PDF failed");
      const detail =
        share === "requester"
          ? "Your other PDFs are still being made: ask again when they are done."
          : share === "company"
            ? "Your company's other PDFs are still being made: ask again shortly."
            : "The PDF could not be made just now: try again shortly.";
      return problem(503, detail, {
        headers: { "Retry-After": "10" },
      });
    }
    return new Response(new Uint8Array(pdf), {
      headers: {
        "Content-Type": "application/pdf",
        "Content-Disposition": `attachment; filename="${documentFileName(found.data)}"`,
        "Cache-Control": "no-store",
      },
    });
  });
}

export const action = (_args: ActionFunctionArgs) => methodNotAllowed("GET");
