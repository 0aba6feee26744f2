import { company } from "~/content/company";
import { formatDate, formatQuantity } from "~/format";
import { RETURN_CONDITION_WORDS, RETURN_REASON_WORDS, type RmaDocumentData } from "~/domain/returns";
import { DOCUMENT_CSS } from "~/styles/order-document";

/**
 * The RMA document's own CSS, after the documents' (styles/order-document.ts): the label is a dashed
 * box to cut out, its RMA number large enough to read across a loading dock, and it stays whole on
 * one page. On a phone the number shrinks to fit 360 px.
 */
export const RMA_CSS = `
.pw-doc .pw-label{border:2px dashed #000;padding:16px;margin:0 0 16px;break-inside:avoid;page-break-inside:avoid}
.pw-doc .pw-rma-number{font:800 64px/1.1 ui-monospace,"Liberation Mono",Menlo,monospace;letter-spacing:.02em;margin:4px 0 12px;overflow-wrap:anywhere}
.pw-doc .pw-label .pw-parties{margin-bottom:0}
.pw-doc .pw-label address{font-style:normal;font-size:16px}
@media print{.pw-doc .pw-rma-number{font-size:44pt}.pw-doc .pw-label address{font-size:12pt}}
@media screen and (max-width:767.98px){.pw-doc .pw-rma-number{font-size:40px}}
`;

/** The page's CSS and the PDF's: the documents' own, then the label's. */
export const RMA_DOCUMENT_CSS = `${DOCUMENT_CSS}${RMA_CSS}`;

function Lines({ lines }: { lines: string[] }) {
  return (
    <address>
      {lines.map((line, index) => (
        <span key={index} style={{ display: "block" }}>
          {line}
        </span>
      ))}
    </address>
  );
}

/** The RMA document: the label for the parcel, then what goes in it (and, once received, what came back). */
export function RmaDocument({ data }: { data: RmaDocumentData }) {
  const received = data.status === "received";
  return (
    <article className="pw-doc" aria-labelledby="document-title">
      <header className="pw-head">
        <div>
          <h1 id="document-title">Return {data.number}</h1>
          <p>{RETURN_REASON_WORDS[data.reason]}</p>
        </div>
        <dl className="pw-meta">
          <dt>Order</dt>
          <dd>{data.order.number}</dd>
          {data.approvedAt ? (
            <>
              <dt>Approved</dt>
              <dd>{formatDate(data.approvedAt)}</dd>
            </>
          ) : null}
          {data.receivedAt ? (
            <>
              <dt>Received</dt>
              <dd>{formatDate(data.receivedAt)}</dd>
            </>
          ) : null}
        </dl>
      </header>
      <section className="pw-label" aria-label="Label for the parcel" data-testid="rma-label">
        <h2>Return authorization</h2>
        <p className="pw-rma-number" data-testid="rma-number">
          {data.number}
        </p>
        <div className="pw-parties">
          <div>
            <h2>Send to</h2>
            <Lines lines={data.returnsAddress} />
          </div>
          <div>
            <h2>From</h2>
            <Lines lines={data.sender} />
          </div>
        </div>
      </section>
      {received ? null : (
        <p>
          Cut out the label and stick it on the parcel, or put it inside with the parts. Parcels without their RMA
          number may be sent back.
        </p>
      )}
      <table>
        <caption>{received ? "What came back" : "Parts in this return"}</caption>
        <thead>
          <tr>
            <th scope="col">Part number</th>
            <th scope="col">Part</th>
            <th scope="col" className="pw-num">
              Units
            </th>
            {received ? (
              <>
                <th scope="col" className="pw-num">
                  Received
                </th>
                <th scope="col">Condition</th>
              </>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {data.lines.map((line, index) => (
            <tr key={index}>
              <td data-label="Part number">{line.partNumber}</td>
              <td className="pw-part">{line.productName}</td>
              <td data-label="Units" className="pw-num">
                {formatQuantity(line.quantity)}
              </td>
              {received ? (
                <>
                  <td data-label="Received" className="pw-num">
                    {formatQuantity(line.receivedQuantity ?? 0)}
                  </td>
                  <td data-label="Condition">{line.condition ? RETURN_CONDITION_WORDS[line.condition] : ""}</td>
                </>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
      <footer className="pw-foot pw-keep">
        <p>
          {company.legalName} · {company.email} · {company.phone.display}
        </p>
      </footer>
    </article>
  );
}
