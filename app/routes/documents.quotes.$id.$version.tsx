import { type HeadersFunction, type LoaderFunctionArgs, type MetaFunction, data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { QUOTE_DOCUMENT_CSS, QuoteDocument } from "~/components/quote-document";
import { quoteDocumentPath, quotePath, staffQuotePath } from "~/domain/quotes";
import { requireUser } from "~/services/guards.server";
import { QUOTE_DOCUMENT_NOT_FOUND, quoteDocumentFor } from "~/orders/quote-document.server";

/**
 * One version of a quote as a quotation: a page that prints cleanly on A4 and US Letter (the shop's
 * header and footer hidden), with its PDF to download. The sent-quote mail links here.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const quotation = await quoteDocumentFor(user, params.id ?? "", params.version);
  if (!quotation) throw new Response(QUOTE_DOCUMENT_NOT_FOUND, { status: 404 });
  const back = user.role === "admin" ? staffQuotePath(quotation.quote.id) : quotePath(quotation.quote.id);
  return data({ quotation, back }, { headers: { "Cache-Control": "private, no-store" } });
}

/** The document's print CSS, in the page's head (root.tsx). */
export const handle = { headStyle: QUOTE_DOCUMENT_CSS };

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function QuoteDocumentPage() {
  const { quotation, back } = useLoaderData<typeof loader>();
  const pdf = `${quoteDocumentPath(quotation.quote.id, quotation.version.version)}/pdf`;
  return (
    <>
      <nav className="pw-actions" aria-label="Document">
        <Link to={back}>Back to the quote</Link>
        {/* A download, not a page: a plain link, so the browser saves the file with or without JavaScript. */}
        <a href={pdf} download data-testid="download-pdf">
          Download PDF (US Letter)
        </a>
        <a href={`${pdf}?paper=a4`} download>
          Download PDF (A4)
        </a>
      </nav>
      <QuoteDocument data={quotation} />
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Quotation ${data.quotation.version.label} — PartsWorks` : "Quotation — PartsWorks" },
  { name: "robots", content: "noindex" },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
