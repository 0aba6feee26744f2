import type { LoaderFunctionArgs } from "@remix-run/node";
import { DOCUMENT_NOT_FOUND, orderDocumentFor, ublResponse } from "~/orders/documents.server";
import { requireUser } from "~/services/guards.server";

/**
 * The invoice as UBL 2.1 (EN 16931), for the same people who may read the invoice:
 * `/documents/{id}/invoice/ubl`; a credit note's UBL CreditNote at `/documents/{id}/credit-note/ubl?number=CN-…`. An order without an invoice (unpaid), or another document, has none: 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (params.kind !== "invoice" && params.kind !== "credit-note")
    throw new Response(DOCUMENT_NOT_FOUND, { status: 404 });
  const creditNote = new URL(request.url).searchParams.get("number");
  const found = await orderDocumentFor(user, params.id ?? "", params.kind, { creditNote });
  if (!found.ok) throw new Response(DOCUMENT_NOT_FOUND, { status: 404 });
  return ublResponse(found.data);
}
