/**
 * The quotation of one version of a quote: who may see it, what it shows, and its HTML and PDF.
 * The quote's buyer, those who see the company's quotes (quoteForCustomer) and admins see it; anyone
 * else, and a version that was never sent, gets the same 404 as a quote that does not exist.
 */
import { renderToStaticMarkup } from "react-dom/server";
// A document renderer, as documents.server.tsx: the one component it renders, which the lint allows by name.
import { QUOTE_DOCUMENT_CSS, QuoteDocument, type QuoteDocumentData } from "~/components/quote-document";
import { formatAddress } from "~/domain/address";
import { formatDate } from "~/format";
import { getCompany } from "~/models/company.server";
import { getUserById, type UserView } from "~/models/user.server";
import { htmlToPdf, type PaperSize } from "~/services/pdf.server";
import { getQuote, type QuoteView } from "./model/quotes.server";
import { quoteForCustomer } from "./quotes.server";

export const QUOTE_DOCUMENT_NOT_FOUND = "We could not find that quotation.";

/** What became of a version since it was sent, said on its quotation (null while it stands open). */
function standingOf(quote: QuoteView, version: number) {
  const latest = quote.versions.length;
  if (quote.status === "accepted" && quote.acceptedVersion === version)
    return `Accepted${quote.acceptedAt ? ` on ${formatDate(quote.acceptedAt)}` : ""}: ordered as ${quote.orderNumber ?? "an order"}.`;
  if (version < latest) {
    const next = quote.versions[version];
    return `Replaced by ${next.label} of ${formatDate(next.sentAt)}: that version's prices apply.`;
  }
  const lastDay = formatDate(`${quote.versions[version - 1].validUntilDay}T12:00:00Z`);
  if (quote.status === "expired") return `Expired: it was valid until the end of ${lastDay}.`;
  if (quote.status === "declined") return "Withdrawn: it can no longer be accepted.";
  if (quote.status === "revision") return "A revision was asked for: a new version follows.";
  return null;
}

/** Version `versionParam` of quote `quoteId` as `user` may see it, or null. */
export async function quoteDocumentFor(
  user: UserView,
  quoteId: string,
  versionParam: string | undefined,
): Promise<QuoteDocumentData | null> {
  if (!/^[1-9]\d{0,2}$/.test(versionParam ?? "")) return null;
  const quote = user.role === "admin" ? await getQuote(quoteId) : await quoteForCustomer(quoteId, user);
  const version = quote?.versions[Number(versionParam) - 1];
  if (!quote || !version) return null;
  // The buyer is the quote's company (its asker may have left it since), else the asker.
  const profile = quote.companyId ? await getCompany(quote.companyId) : await getUserById(quote.userId);
  const details = profile?.company;
  return {
    quote: { id: quote.id, label: quote.label, currency: quote.currency, wantedBy: quote.wantedBy },
    version: {
      version: version.version,
      label: version.label,
      sentAt: version.sentAt,
      validUntilDay: version.validUntilDay,
      netCents: version.netCents,
      terms: version.terms,
      note: version.note,
      partialAllowed: version.partialAllowed,
      lines: version.lines.map(({ partNumber, productName, quantity, unitPriceCents, leadTimeDays }) => ({
        partNumber,
        productName,
        quantity,
        unitPriceCents,
        leadTimeDays,
      })),
    },
    standing: standingOf(quote, version.version),
    customer: {
      name: quote.userName,
      email: quote.userEmail,
      companyName: quote.companyName ?? details?.companyName ?? "",
      taxId: details?.taxId ?? "",
      country: details?.country ?? "",
      address: details?.billing ? formatAddress(details.billing) : (details?.billingAddress ?? ""),
    },
  };
}

/** "quotation-Q-100012-2.pdf" */
export const quoteFileName = (data: QuoteDocumentData) => `quotation-${data.version.label}.pdf`;

/** The quotation as a complete HTML page of its own (what the PDF prints): the same markup and CSS as the page. */
export function renderQuoteHtml(data: QuoteDocumentData) {
  const markup = renderToStaticMarkup(
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <title>{`Quotation ${data.version.label}`}</title>
        <style dangerouslySetInnerHTML={{ __html: QUOTE_DOCUMENT_CSS }} />
      </head>
      <body style={{ margin: 0, background: "#fff" }}>
        <main>
          <QuoteDocument data={data} />
        </main>
      </body>
    </html>,
  );
  return `<!DOCTYPE html>${markup}`;
}

/** The quotation's PDF (PdfBusyError as htmlToPdf). */
export const printQuote = (data: QuoteDocumentData, paper: PaperSize, who: { requester?: string; company?: string }) =>
  htmlToPdf(renderQuoteHtml(data), paper, who);
