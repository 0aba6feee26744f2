import { Fragment } from "react";
import { company } from "~/content/company";
import { seller } from "~/content/tax-rates";
import { formatDate, formatQuantity } from "~/format";
import { bankDetailsOf } from "~/domain/bank-accounts";
import { HOME_CURRENCY } from "~/domain/money";
import type { ReceivedPayment } from "~/domain/order-payments";
import { termsWords } from "~/domain/order-states";
import { describeShipment } from "~/domain/shipping";
import { countryName } from "~/domain/tax-id";
import { formatAddress } from "~/domain/address";
import { DOCUMENT_TITLES, type OrderDocumentData } from "~/domain/order-document";
import { VatInSellerCurrencyLine } from "./vat-in-seller-currency";
import { PackingSlipLines } from "./packing-slip";
import { InCurrency, useCurrency, useMoney } from "./money";

/** The renderer (orders/documents.server.tsx) takes the markup and its CSS from here, the one component it may import. */
export { DOCUMENT_CSS } from "~/styles/order-document";

/** An address, without a first line that repeats the company name printed just above it. */
function Address({ text, companyName = "" }: { text: string; companyName?: string }) {
  const lines = text.split(/\r?\n/);
  const shown =
    companyName && lines[0]?.trim().toLowerCase() === companyName.trim().toLowerCase() ? lines.slice(1) : lines;
  return <p className="pw-pre">{shown.join("\n")}</p>;
}

/**
 * The buyer's address as the e-invoice's buyer (BG-8) has it: the company's billing address, else the
 * delivery address, so the printed "Bill to" and the XML never differ.
 */
function billToAddress({ customer, order }: OrderDocumentData) {
  if (customer.billing) return formatAddress(customer.billing);
  if (customer.billingAddress) return customer.billingAddress;
  return order.deliveryAddress ? formatAddress(order.deliveryAddress) : order.address;
}

/** The seller's account in the document's currency and the reference to quote: what a trade buyer needs to pay by transfer. */
function PayBy({ reference }: { reference: string }) {
  const currency = useCurrency();
  return (
    <section data-testid="bank-details" className="pw-bank pw-keep">
      <h2>Pay by bank transfer</h2>
      <dl className="pw-meta">
        {bankDetailsOf(currency).map((row) => (
          <Fragment key={row.label}>
            <dt>{row.label}</dt>
            <dd>{row.value}</dd>
          </Fragment>
        ))}
        <dt>Payment reference</dt>
        <dd data-testid="payment-reference">
          <strong>{reference}</strong>
        </dd>
      </dl>
    </section>
  );
}

/** The payments received on an invoice, each with its day, method and reference, and what is still due. */
function Received({ received, balanceCents }: { received: ReceivedPayment[]; balanceCents: number }) {
  const currency = useCurrency();
  const money = useMoney();
  return (
    <table data-testid="payments-received" style={{ marginTop: 16 }}>
      <caption>Payments received</caption>
      <thead>
        <tr>
          <th scope="col">Date</th>
          <th scope="col">Method</th>
          <th scope="col">Reference</th>
          <th scope="col" className="pw-num">
            Amount
          </th>
        </tr>
      </thead>
      <tbody>
        {received.map((payment, index) => (
          <tr key={index}>
            <td data-label="Date">{formatDate(payment.on)}</td>
            <td className="pw-part">{payment.method}</td>
            <td data-label="Reference">{payment.reference}</td>
            <td className="pw-num" data-label="Amount">
              {money(payment.amountCents)}
            </td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row" colSpan={3}>
            {`Still due (${currency})`}
          </th>
          <td className="pw-num" data-label="Amount" data-testid="still-due">
            {money(balanceCents)}
          </td>
        </tr>
      </tfoot>
    </table>
  );
}

/** Tax lines under the seller's EU VAT registration: its number is printed. */
const EU_VAT_KINDS = ["vat", "reverse-charge", "intra-community", "export"];

/** An invoice, a pro-forma invoice, a credit note or a packing slip (no prices) for one order, in its currency. */
export function OrderDocument({ data }: { data: OrderDocumentData }) {
  return (
    <InCurrency currency={data.order.currency ?? HOME_CURRENCY}>
      <DocumentIn data={data} />
    </InCurrency>
  );
}

function DocumentIn({ data }: { data: OrderDocumentData }) {
  const { kind, order, customer } = data;
  const currency = useCurrency();
  const money = useMoney();
  const totalWord =
    kind === "credit-note"
      ? "Total credited"
      : kind === "invoice" && order.balanceCents === 0
        ? "Total paid"
        : "Total due";
  const prices = kind !== "packing-slip";
  const title = DOCUMENT_TITLES[kind];
  return (
    <article className="pw-doc" data-testid="order-document" aria-labelledby="document-title">
      <header className="pw-head">
        <div>
          <h1 id="document-title">{title}</h1>
          {kind === "pro-forma" ? (
            <p className="pw-note" data-testid="pro-forma-note">
              {order.invoiceAtShipping
                ? `${order.balanceCents ? `${money(order.balanceCents)} to pay on the invoice's terms` : order.paymentLine}. An intra-community supply is invoiced when it ships, with the day of the supply.`
                : `Payable before dispatch: ${money(order.balanceCents)} due${order.balanceCents !== order.totalCents ? " (the total less what was received or credited)" : ""}. We ship once the money is received; the invoice follows.`}
            </p>
          ) : null}
          {kind === "credit-note" && data.creditNote ? (
            <p className="pw-note" data-testid="credit-note-settlement">
              {data.creditNote.settlement}
            </p>
          ) : null}
          {kind === "invoice" ? (
            <p className="pw-note" data-testid="invoice-status">
              {order.balanceCents === 0
                ? order.paymentLine
                : `${order.received.length ? "Part-paid" : "On account"}: ${money(order.balanceCents)} still due${order.dueAt ? ` by ${formatDate(order.dueAt)}` : ""}`}
            </p>
          ) : null}
          <dl className="pw-meta" style={{ marginTop: 8 }}>
            {kind === "credit-note" && data.creditNote ? (
              <>
                <dt>Credit note number</dt>
                <dd data-testid="credit-note-number">{data.creditNote.number}</dd>
                <dt>Credit note date</dt>
                <dd>{formatDate(data.creditNote.issuedAt)}</dd>
                <dt>Corrects invoice</dt>
                <dd data-testid="corrected-invoice">
                  {data.invoiceNumber} of {formatDate(data.creditNote.invoiceIssuedAt)}
                </dd>
                <dt>Reason</dt>
                <dd>{data.creditNote.reason}</dd>
              </>
            ) : data.invoiceNumber ? (
              <>
                <dt>Invoice number</dt>
                <dd data-testid="invoice-number">{data.invoiceNumber}</dd>
                <dt>Invoice date</dt>
                <dd>{formatDate(order.invoicedAt ?? order.paidAt)}</dd>
              </>
            ) : null}
            <dt>Order number</dt>
            <dd data-testid="document-order-number">{order.number}</dd>
            {order.parcel ? (
              <>
                <dt>Parcel</dt>
                <dd data-testid="document-parcel">{order.parcel.number}</dd>
              </>
            ) : null}
            <dt>Order date</dt>
            <dd>{formatDate(order.createdAt)}</dd>
            {kind === "invoice" ? (
              <>
                <dt>Terms</dt>
                <dd data-testid="document-terms">{order.terms}</dd>
              </>
            ) : null}
            {kind === "invoice" && order.dueAt ? (
              <>
                <dt>Due date</dt>
                <dd data-testid="due-date">{formatDate(order.dueAt)}</dd>
              </>
            ) : null}
            {kind === "invoice" && order.paidAt ? (
              <>
                <dt>Paid</dt>
                <dd>{formatDate(order.paidAt)}</dd>
              </>
            ) : null}
            {order.shippedAt ? (
              <>
                <dt>Shipped</dt>
                <dd>{formatDate(order.shippedAt)}</dd>
              </>
            ) : null}
            {order.shipment ? (
              <>
                <dt>Shipped with</dt>
                <dd data-testid="document-shipment">{describeShipment(order.shipment)?.text}</dd>
              </>
            ) : null}
            {order.poNumber ? (
              <>
                <dt>Your PO number</dt>
                <dd data-testid="document-po-number">{order.poNumber}</dd>
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
          {prices ? <p>Tax number: {company.taxId}</p> : null}
          {prices && order.taxLines.some((line) => EU_VAT_KINDS.includes(line.kind)) ? (
            <p>EU VAT number: {seller.euVat.number}</p>
          ) : null}
        </div>
      </header>
      <div className="pw-parties">
        <section data-testid="bill-to">
          <h2>{prices ? "Bill to" : "Customer"}</h2>
          {customer.companyName ? (
            <p>
              <strong>{customer.companyName}</strong>
            </p>
          ) : null}
          <p>{customer.name}</p>
          <p>{customer.email}</p>
          {prices && order.buyerVatNumber ? <p data-testid="buyer-vat">VAT number: {order.buyerVatNumber}</p> : null}
          {prices && customer.taxId && customer.taxId !== order.buyerVatNumber ? (
            <p>
              Tax number: {customer.taxId}
              {customer.country ? ` (${countryName(customer.country)})` : ""}
            </p>
          ) : null}
          {prices ? <Address text={billToAddress(data)} companyName={customer.companyName} /> : null}
        </section>
        <section data-testid="ship-to">
          <h2>Deliver to</h2>
          <p>{customer.companyName || customer.name}</p>
          <Address text={order.address} companyName={customer.companyName} />
          <p>Phone: {order.phone}</p>
        </section>
      </div>
      {prices ? (
        <table>
          <caption>{kind === "credit-note" ? "Lines credited" : "Lines"}</caption>
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
                Line total
              </th>
            </tr>
          </thead>
          <tbody>
            {order.lines.map((line, index) => (
              <tr key={`${line.partNumber}-${index}`}>
                <td data-label="Part number">{line.partNumber || "—"}</td>
                <td className="pw-part">{line.productName}</td>
                <td className="pw-num" data-label="Quantity">
                  {formatQuantity(line.quantity)}
                </td>
                <td className="pw-num" data-label="Unit price">
                  {money(line.unitPriceCents)}
                </td>
                <td className="pw-num" data-label="Line total">
                  {money(line.lineTotalCents)}
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            {order.taxLines.length ? (
              <>
                <tr>
                  <th scope="row" colSpan={4}>
                    Net
                  </th>
                  <td className="pw-num" data-testid="document-net">
                    {money(order.netCents)}
                  </td>
                </tr>
                {order.taxLines.map((line, index) => (
                  <tr key={index} data-testid="document-tax">
                    <th scope="row" colSpan={4}>
                      {line.label}
                    </th>
                    <td className="pw-num">{money(line.amountCents)}</td>
                  </tr>
                ))}
              </>
            ) : null}
            <tr>
              <th scope="row" colSpan={2}>
                {`${totalWord} (${currency})`}
              </th>
              {/* Units of different parts are not added up where money is the total. */}
              <td className="pw-num" data-label="Quantity">
                {order.lines.length === 1
                  ? formatQuantity(order.lines.reduce((sum, line) => sum + line.quantity, 0))
                  : null}
              </td>
              <td />
              <td className="pw-num" data-label="Amount" data-testid="document-total">
                {money(order.totalCents)}
              </td>
            </tr>
          </tfoot>
        </table>
      ) : (
        <PackingSlipLines order={order} />
      )}
      {prices ? <VatInSellerCurrencyLine vat={data.vatInSellerCurrency} /> : null}
      {(kind === "invoice" || kind === "pro-forma") && order.received.length ? (
        <Received received={order.received} balanceCents={order.balanceCents} />
      ) : null}
      {(kind === "pro-forma" && !order.invoiceAtShipping) ||
      ((kind === "invoice" || kind === "pro-forma") && order.balanceCents > 0) ? (
        <PayBy reference={order.number} />
      ) : null}
      {prices
        ? order.taxLines
            .filter((line) => line.note)
            .map((line, index) => (
              <p key={index} className="pw-tax-note pw-keep" data-testid="tax-note">
                {line.note}
                {(line.kind === "reverse-charge" || line.kind === "intra-community") && order.buyerVatNumber
                  ? ` Customer VAT number ${order.buyerVatNumber}; supplier VAT number ${seller.euVat.number}.`
                  : ""}
              </p>
            ))
        : null}
      <footer className="pw-foot pw-keep">
        {kind === "invoice" ? (
          <p>
            {order.paymentMethod === "account"
              ? `${termsWords(order.termsDays)} from the invoice date; quote ${order.number} with your payment.`
              : `${order.paymentLine}.`}{" "}
            Thank you for your order.
          </p>
        ) : null}
        {kind === "pro-forma" ? (
          <p>
            {order.invoiceAtShipping
              ? `Pro-forma invoice: the invoice number is given when order ${order.number} ships.`
              : `Pro-forma invoice: quote ${order.number} with your payment; the invoice number is given once it is paid.`}
          </p>
        ) : null}
        {kind === "packing-slip" ? <p>Please check the parts against this slip on delivery.</p> : null}
        {kind === "credit-note" ? (
          <p>
            This credit note corrects invoice {data.invoiceNumber} of order {order.number}: the lines above are credited
            at the prices invoiced.
          </p>
        ) : null}
        <p>
          {company.legalName} · {company.email} · {company.phone.display}
        </p>
      </footer>
    </article>
  );
}
