import {
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  data as dataWithInit,
} from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { OrderDocument } from "~/components/order-document";
import { DOCUMENT_CSS } from "~/styles/order-document";
import { creditNoteUblPath, documentPath, ublPath } from "~/domain/order-document";
import { requireUser } from "~/services/guards.server";
import { documentTitle, loadOrderDocument } from "~/orders/documents.server";

/**
 * An order's invoice, pro-forma invoice, packing slip or credit note (?number=CN-…), as a page that prints cleanly on A4 and
 * US Letter (the print CSS hides the shop's header and footer), with its PDF to download.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const data = await loadOrderDocument(request, params.id ?? "", params.kind);
  const back =
    user.role === "admin" ? `/dashboard/manageOrders/${data.order.id}` : `/dashboard/orders/${data.order.id}`;
  return dataWithInit(
    {
      data,
      title: documentTitle(data),
      back,
      // A parcel's packing slip keeps its ?parcel= in the PDF's link.
      pdf: `${documentPath(data.order.id, data.kind, true)}${new URL(request.url).search}`,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

/** The document's print CSS, in the page's head (root.tsx): a style element in the body may only style what follows it. */
export const handle = { headStyle: DOCUMENT_CSS };

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function OrderDocumentPage() {
  const { data, back, pdf } = useLoaderData<typeof loader>();
  return (
    <>
      <nav className="pw-actions" aria-label="Document">
        <Link to={back}>Back to the order</Link>
        {/* A download, not a page: a plain link, so the browser saves the file with or without JavaScript. */}
        <a href={pdf} download data-testid="download-pdf">
          Download PDF (US Letter)
        </a>
        <a href={`${pdf}${pdf.includes("?") ? "&" : "?"}paper=a4`} download>
          Download PDF (A4)
        </a>
        {data.kind === "invoice" ? (
          <a href={ublPath(data.order.id)} download data-testid="download-ubl">
            Download e-invoice (UBL XML)
          </a>
        ) : null}
        {data.kind === "credit-note" && data.creditNote ? (
          <a href={creditNoteUblPath(data.order.id, data.creditNote.number)} download data-testid="download-ubl">
            Download e-credit note (UBL XML)
          </a>
        ) : null}
      </nav>
      <OrderDocument data={data} />
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.title} — PartsWorks` : "Document — PartsWorks" },
  { name: "robots", content: "noindex" },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
