import { type HeadersFunction, type LoaderFunctionArgs, type MetaFunction, data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { RMA_DOCUMENT_CSS, RmaDocument } from "~/components/rma-document";
import { rmaPath } from "~/domain/returns";
import { requireUser } from "~/services/guards.server";
import { RMA_NOT_FOUND, rmaDocumentFor } from "~/orders/rma-document.server";

/**
 * A return's RMA document: its number large, as a label to stick on the parcel, where to send it and
 * what is in it. Prints cleanly (the shop's header and footer hidden), with its PDF to download.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const rma = await rmaDocumentFor(user, params.id ?? "", params.number ?? "");
  if (!rma) throw new Response(RMA_NOT_FOUND, { status: 404 });
  const back = user.role === "admin" ? `/dashboard/manageOrders/${rma.order.id}` : `/dashboard/orders/${rma.order.id}`;
  return data({ rma, back }, { headers: { "Cache-Control": "private, no-store" } });
}

/** The document's print CSS, in the page's head (root.tsx). */
export const handle = { headStyle: RMA_DOCUMENT_CSS };

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function RmaDocumentPage() {
  const { rma, back } = useLoaderData<typeof loader>();
  const pdf = rmaPath(rma.order.id, rma.number, true);
  return (
    <>
      <nav className="pw-actions" aria-label="Document">
        <Link to={back}>Back to the order</Link>
        {/* A download, not a page: a plain link, so the browser saves the file with or without JavaScript. */}
        <a href={pdf} download data-testid="download-pdf">
          Download PDF (US Letter)
        </a>
        <a href={`${pdf}?paper=a4`} download>
          Download PDF (A4)
        </a>
      </nav>
      <RmaDocument data={rma} />
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Return ${data.rma.number} — PartsWorks` : "Return label — PartsWorks" },
  { name: "robots", content: "noindex" },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
