import { company } from "~/content/company";
import { formatCurrencyName, formatDate, formatQuantity } from "~/format";
import type { Currency } from "~/domain/money";
import { countryName } from "~/domain/tax-id";
import { DOCUMENT_CSS } from "~/styles/order-document";
import { InCurrency, useCurrency, useMoney } from "./money";

/** The page's CSS and the PDF's: the documents' own, then the quotation's terms block. */
export const QUOTE_DOCUMENT_CSS = `${DOCUMENT_CSS}
.pw-doc .pw-terms{margin-top:16px}
.pw-doc .pw-terms h2{margin-top:12px}
@media print{.pw-doc .pw-terms{margin-top:10px}}
`;

/** One version of a quote as its quotation prints it (orders/quote-document.server.tsx builds it). */
export type QuoteDocumentData = {
  quote: { id: string; label: string; currency: Currency; wantedBy: string | null };
  version: {
    version: number;
    label: string;
    sentAt: string;
    validUntilDay: string;
    netCents: number;
    terms: string;
    note: string;
    partialAllowed: boolean;
    lines: {
      partNumber: string;
      productName: string;
      quantity: number;
      unitPriceCents: number;
      leadTimeDays: number;
    }[];
  };
  /** What became of this version since it was sent, in words (replaced, expired, accepted), or null. */
  standing: string | null;
  customer: {
    name: string;
    email: string;
    companyName: string;
    taxId: string;
    country: string;
    address: string;
  };
};

/** An address, without a first line that repeats the company name printed just above it. */
function withoutName(address: string, companyName: string) {
  const lines = address.split(/\r?\n/);
  const repeats = companyName && lines[0]?.trim().toLowerCase() === companyName.trim().toLowerCase();
  return (repeats ? lines.slice(1) : lines).join("\n");
}

const leadTime = (days: number) => (days === 0 ? "From stock" : days === 1 ? "1 day" : `${days} days`);

/** A quotation: one version of a quote, its prices valid until its last day, in the quote's currency. */
export function QuoteDocument({ data }: { data: QuoteDocumentData }) {
  return (
    <InCurrency currency={data.quote.currency}>
      <QuotationIn data={data} />
    </InCurrency>
  );
}

function QuotationIn({ data }: { data: QuoteDocumentData }) {
  const { quote, version, customer } = data;
  const currency = useCurrency();
  const money = useMoney();
  return (
    <article className="pw-doc" data-testid="quote-document" aria-labelledby="document-title">
      <header className="pw-head">
        <div>
          <h1 id="document-title">Quotation {version.label}</h1>
          {data.standing ? (
            <p className="pw-note" data-testid="quote-standing">
              {data.standing}
            </p>
          ) : null}
          <dl className="pw-meta" style={{ marginTop: 8 }}>
            <dt>Quotation number</dt>
            <dd data-testid="quote-number">{version.label}</dd>
            <dt>Date</dt>
            <dd>{formatDate(version.sentAt)}</dd>
            <dt>Valid until</dt>
            <dd data-testid="quote-valid-until">{formatDate(`${version.validUntilDay}T12:00:00Z`)}</dd>
            <dt>Currency</dt>
            <dd>{formatCurrencyName(currency)}</dd>
            <dt>Your request</dt>
            <dd>{quote.label}</dd>
            {quote.wantedBy ? (
              <>
                <dt>Wanted by</dt>
                <dd>{formatDate(`${quote.wantedBy}T12:00:00Z`)}</dd>
              </>
            ) : null}
          </dl>
        </div>
        <div data-testid="seller">
          <h2>From</h2>
          <p>
            <strong>{company.legalName}</strong>
          </p>
          <p>{company.address.street}</p>
          <p>
            {company.address.city}, {company.address.region} {company.address.postalCode}
          </p>
          <p>{company.address.country}</p>
          <p>{company.email}</p>
          <p>{company.phone.display}</p>
          <p>Tax number: {company.taxId}</p>
        </div>
      </header>
      <div className="pw-parties">
        <section data-testid="quote-for">
          <h2>Quotation for</h2>
          {customer.companyName ? (
            <p>
              <strong>{customer.companyName}</strong>
            </p>
          ) : null}
          <p>{customer.name}</p>
          <p>{customer.email}</p>
          {customer.taxId ? (
            <p>
              Tax number: {customer.taxId}
              {customer.country ? ` (${countryName(customer.country)})` : ""}
            </p>
          ) : null}
          {customer.address ? <p className="pw-pre">{withoutName(customer.address, customer.companyName)}</p> : null}
        </section>
      </div>
      <table>
        <caption>Lines</caption>
        <thead>
          <tr>
            <th scope="col">Part number</th>
            <th scope="col">Part</th>
            <th scope="col" className="pw-num">
              Quantity
            </th>
            <th scope="col" className="pw-num">
              Unit price
            </th>
            <th scope="col" className="pw-num">
              Lead time
            </th>
            <th scope="col" className="pw-num">
              Line total
            </th>
          </tr>
        </thead>
        <tbody>
          {version.lines.map((line, index) => (
            <tr key={`${line.partNumber}-${index}`}>
              <td data-label="Part number">{line.partNumber}</td>
              <td className="pw-part">{line.productName}</td>
              <td className="pw-num" data-label="Quantity">
                {formatQuantity(line.quantity)}
              </td>
              <td className="pw-num" data-label="Unit price">
                {money(line.unitPriceCents)}
              </td>
              <td className="pw-num" data-label="Lead time">
                {leadTime(line.leadTimeDays)}
              </td>
              <td className="pw-num" data-label="Line total">
                {money(line.unitPriceCents * line.quantity)}
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={5}>
              {`Net (${currency})`}
            </th>
            <td className="pw-num" data-label="Amount" data-testid="quote-net">
              {money(version.netCents)}
            </td>
          </tr>
        </tfoot>
      </table>
      <p className="pw-tax-note pw-keep" data-testid="quote-tax-note">
        Prices are before tax. Tax is charged as for the delivery address when the quotation is accepted and ordered.
      </p>
      <section className="pw-terms pw-keep" data-testid="quote-terms">
        <h2>Terms</h2>
        <p>
          Valid until the end of {formatDate(`${version.validUntilDay}T12:00:00Z`)} (UTC). Accept it in your account to
          order at these prices
          {version.partialAllowed ? "; you may order some of the lines only." : ": the lines are ordered together."}
        </p>
        {version.terms ? <p className="pw-pre">{version.terms}</p> : null}
        {version.note ? (
          <>
            <h2>Note</h2>
            <p className="pw-pre" data-testid="quote-note">
              {version.note}
            </p>
          </>
        ) : null}
      </section>
      <footer className="pw-foot pw-keep">
        <p>Quote {version.label} when you accept or ask about this quotation.</p>
        <p>
          {company.legalName} · {company.email} · {company.phone.display}
        </p>
      </footer>
    </article>
  );
}
