import { formatQuantity } from "~/format";
import type { OrderDocumentData } from "~/domain/order-document";

/**
 * A packing slip's parts, no prices: a parcel's units, or on the whole order's slip what is left to
 * ship (with the units waiting on backorder counted apart), or every unit once it has shipped whole.
 */
export function PackingSlipLines({ order }: { order: OrderDocumentData["order"] }) {
  const { parcel, lines } = order;
  const backordered = lines.some((line) => line.backorderedQuantity);
  const caption = parcel
    ? `Parts in parcel ${parcel.number}`
    : order.shippedAt
      ? "Parts shipped"
      : "Parts still to ship";
  return (
    <>
      <table data-testid="packing-slip-lines">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Part number</th>
            <th scope="col">Part</th>
            <th scope="col" className="pw-num">
              Quantity
            </th>
            {backordered ? (
              <th scope="col" className="pw-num">
                Of which on backorder
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {lines.map((line, index) => (
            <tr key={`${line.partNumber}-${index}`}>
              <td data-label="Part number">{line.partNumber || "—"}</td>
              <td className="pw-part">{line.productName}</td>
              <td className="pw-num" data-label="Quantity">
                {formatQuantity(line.quantity)}
              </td>
              {backordered ? (
                <td className="pw-num" data-label="Of which on backorder">
                  {line.backorderedQuantity ? formatQuantity(line.backorderedQuantity) : "—"}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={2}>
              Total quantity
            </th>
            <td className="pw-num">{formatQuantity(lines.reduce((sum, line) => sum + line.quantity, 0))}</td>
            {backordered ? (
              <td className="pw-num" data-label="Of which on backorder">
                {formatQuantity(lines.reduce((sum, line) => sum + (line.backorderedQuantity ?? 0), 0))}
              </td>
            ) : null}
          </tr>
        </tfoot>
      </table>
      {parcel?.note ? (
        <p className="pw-note pw-keep" data-testid="parcel-note">
          Note: {parcel.note}
        </p>
      ) : null}
    </>
  );
}
