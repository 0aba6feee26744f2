import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { documentFileName } from "~/components/order-document";
import { apiCall, methodNotAllowed, notFound, problem } from "~/utils/api.server";
import { orderDocumentFor, renderDocumentHtml } from "~/orders/documents.server";
import { htmlToPdf, PdfBusyError } from "~/utils/pdf.server";

/** GET /api/v1/orders/{id}/documents/{invoice|pro-forma}: the PDF the order's page offers. */
export async function loader(args: LoaderFunctionArgs) {
  return apiCall(args, "read", async ({ user }) => {
    const kind = args.params.kind;
    if (kind !== "invoice" && kind !== "pro-forma") throw notFound("Documents are invoice and pro-forma.");
    const found = await orderDocumentFor(user, args.params.id ?? "", kind);
    if (!found.ok) {
      if (found.instead)
        return problem(409, `This order has a ${found.instead} instead.`, { extra: { instead: found.instead } });
      throw notFound("No such order in your account, or it has no documents.");
    }
    let pdf: Buffer;
    try {
      pdf = await htmlToPdf(renderDocumentHtml(found.data), "Letter", { requester: user.id });
    } catch (error) {
      const mine = error instanceof PdfBusyError && error.mine;
      if (!mine) args.context.logger?.error({ err: error }, "PDF failed");
      const detail = mine
        ? "Your other PDFs are still being made: ask again when they are done."
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
