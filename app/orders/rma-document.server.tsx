/**
 * The RMA document of an approved (or received) return: who may see it, what it shows, and its HTML
 * and PDF. Whoever may see the order sees it (its customer, staff); anyone else gets the same 404 as
 * a return that does not exist.
 */
import { renderToStaticMarkup } from "react-dom/server";
// A document renderer, as documents.server.tsx: the one component it renders, which the lint allows by name.
import { RMA_DOCUMENT_CSS, RmaDocument } from "~/components/rma-document";
import { htmlToPdf, type PaperSize } from "~/services/pdf.server";
import { addressLines } from "~/domain/address";
import { RETURNS_ADDRESS_LINES, type RmaDocumentData } from "~/domain/returns";
import { getOrderById, getOwnOrder } from "~/orders/model/reads.server";
import type { UserView } from "~/models/user.server";

export const RMA_NOT_FOUND = "We could not find that return label.";

/** The RMA `number` (RMA-100042) of order `orderId` as `user` may see it, or null. */
export async function rmaDocumentFor(
  user: Pick<UserView, "id" | "role"> & { companyId?: string | null },
  orderId: string,
  number: string,
): Promise<RmaDocumentData | null> {
  const order = user.role === "admin" ? await getOrderById(orderId) : await getOwnOrder(orderId, user);
  const entry = order?.returns.find((candidate) => candidate.number === number);
  if (!order || !entry?.number) return null;
  const placeOf = order.deliveryAddress
    ? addressLines(order.deliveryAddress)
    : order.address.split(/\r?\n/).filter(Boolean);
  const sender = [order.userName, order.companyName ?? "", ...placeOf].filter(
    (line, index, all) => line && all.indexOf(line) === index,
  );
  return {
    number: entry.number,
    status: entry.status,
    reason: entry.reason,
    approvedAt: entry.decidedAt,
    receivedAt: entry.receivedAt,
    order: { id: order.id, number: order.number },
    sender,
    returnsAddress: RETURNS_ADDRESS_LINES,
    lines: entry.lines.map(({ partNumber, productName, quantity, receivedQuantity, condition }) => ({
      partNumber,
      productName,
      quantity,
      receivedQuantity,
      condition,
    })),
  };
}

/** The document as a complete HTML page of its own (what the PDF prints): the same markup and CSS as the page. */
export function renderRmaHtml(rma: RmaDocumentData) {
  const markup = renderToStaticMarkup(
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <title>{`Return ${rma.number}`}</title>
        <style dangerouslySetInnerHTML={{ __html: RMA_DOCUMENT_CSS }} />
      </head>
      <body style={{ margin: 0, background: "#fff" }}>
        <main>
          <RmaDocument data={rma} />
        </main>
      </body>
    </html>,
  );
  return `<!DOCTYPE html>${markup}`;
}

/** The document's PDF (PdfBusyError as htmlToPdf). */
export const printRma = (rma: RmaDocumentData, paper: PaperSize, who: { requester?: string; company?: string }) =>
  htmlToPdf(renderRmaHtml(rma), paper, who);
