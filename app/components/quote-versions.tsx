import { useMoney } from "~/components/money";
import { DataTable } from "~/components/ui/data-table";
import { quoteDocumentPath, type QuoteRequestLine, type QuoteVersionView } from "~/domain/quotes";
import { formatDate, formatQuantity } from "~/format";

const linkClass = "font-medium text-brand-700 underline hover:text-brand-800";
const cell = "px-3 py-2 align-top";

/** What the buyer asked for: the parts and quantities, their target prices, the delivery date wanted. */
export function QuoteRequestSummary({
  lines,
  wantedBy,
  askedAt,
  askedBy,
}: {
  lines: QuoteRequestLine[];
  wantedBy: string | null;
  askedAt: string;
  askedBy: string;
}) {
  const money = useMoney();
  return (
    <section aria-labelledby="request-heading" className="mt-6">
      <h2 id="request-heading" className="text-xl font-semibold">
        Your request
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        Asked by {askedBy} on {formatDate(askedAt)}
        {wantedBy ? `; delivery wanted by ${formatDate(wantedBy)}` : ""}.
      </p>
      <DataTable
        caption="The parts you asked for"
        testId="quote-request-lines"
        columns={[
          { label: "Part" },
          { label: "Quantity", align: "right" },
          { label: "Your target a unit", align: "right" },
        ]}
      >
        {lines.map((line) => (
          <tr key={line.partId}>
            <th scope="row" className={`${cell} font-normal`}>
              <span className="font-medium">{line.partNumber}</span>{" "}
              <span className="text-slate-600">{line.productName}</span>
            </th>
            <td className={`${cell} text-right`} data-label="Quantity">
              {formatQuantity(line.quantity)}
            </td>
            <td className={`${cell} text-right`} data-label="Your target a unit">
              {line.targetUnitPriceCents !== null ? money(line.targetUnitPriceCents) : "—"}
            </td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}

/** Every version the shop sent, newest first and open; the older ones folded away. */
export function QuoteVersions({ quoteId, versions }: { quoteId: string; versions: QuoteVersionView[] }) {
  if (!versions.length) return null;
  const newestFirst = [...versions].reverse();
  return (
    <section aria-labelledby="versions-heading" className="mt-8">
      <h2 id="versions-heading" className="text-xl font-semibold">
        {versions.length === 1 ? "Our quotation" : `Our quotations (${versions.length} versions)`}
      </h2>
      {newestFirst.map((version, index) =>
        index === 0 ? (
          <div key={version.version} className="mt-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
            <VersionBody quoteId={quoteId} version={version} latest />
          </div>
        ) : (
          <details key={version.version} className="mt-3 rounded border border-slate-200 bg-slate-50 p-3">
            <summary className="flex min-h-11 cursor-pointer items-center font-medium">
              {version.label}, sent {formatDate(version.sentAt)} (replaced)
            </summary>
            <VersionBody quoteId={quoteId} version={version} latest={false} />
          </details>
        ),
      )}
    </section>
  );
}

function VersionBody({ quoteId, version, latest }: { quoteId: string; version: QuoteVersionView; latest: boolean }) {
  const money = useMoney();
  const saved = version.lines.reduce(
    (sum, line) => sum + Math.max(0, line.listUnitPriceCents - line.unitPriceCents) * line.quantity,
    0,
  );
  const document = quoteDocumentPath(quoteId, version.version);
  return (
    <div data-testid={`quote-version-${version.version}`}>
      {latest ? (
        <h3 className="text-lg font-semibold">
          {version.label}{" "}
          <span className="text-sm font-normal text-slate-600">
            sent {formatDate(version.sentAt)} by {version.sentByName}
          </span>
        </h3>
      ) : null}
      <DataTable
        caption={`The lines of ${version.label}`}
        columns={[
          { label: "Part" },
          { label: "Quantity", align: "right" },
          { label: "Quoted a unit", align: "right" },
          { label: "List a unit", align: "right" },
          { label: "You save", align: "right" },
          { label: "Lead time" },
        ]}
      >
        {version.lines.map((line) => (
          <tr key={line.partId}>
            <th scope="row" className={`${cell} font-normal`}>
              <span className="font-medium">{line.partNumber}</span>{" "}
              <span className="text-slate-600">{line.productName}</span>
            </th>
            <td className={`${cell} text-right`} data-label="Quantity">
              {formatQuantity(line.quantity)}
            </td>
            <td className={`${cell} text-right font-medium`} data-label="Quoted a unit" data-testid="quoted-unit-price">
              {money(line.unitPriceCents)}
            </td>
            <td className={`${cell} text-right`} data-label="List a unit">
              {money(line.listUnitPriceCents)}
            </td>
            <td className={`${cell} text-right`} data-label="You save">
              {line.listUnitPriceCents > line.unitPriceCents
                ? money((line.listUnitPriceCents - line.unitPriceCents) * line.quantity)
                : "—"}
            </td>
            <td className={cell} data-label="Lead time">
              {line.leadTimeDays === 0 ? "From stock" : `${formatQuantity(line.leadTimeDays)} days`}
            </td>
          </tr>
        ))}
      </DataTable>
      <p className="mt-2 text-sm">
        <strong>Net {money(version.netCents)}</strong>
        {saved > 0 ? <span> (you save {money(saved)} on the list prices)</span> : null}; tax is added for the delivery
        address when you order.
      </p>
      <p className="text-sm">
        Valid until <strong>{formatDate(version.validUntilDay)}</strong>
        {version.partialAllowed ? "; you may order some of its lines only" : "; it is ordered whole"}.
      </p>
      {version.terms ? (
        <p className="mt-1 whitespace-pre-line text-sm">
          <span className="font-medium">Terms:</span> {version.terms}
        </p>
      ) : null}
      {version.note ? (
        <p className="mt-1 whitespace-pre-line text-sm">
          <span className="font-medium">Our note:</span> {version.note}
        </p>
      ) : null}
      <p className="mt-2 flex flex-wrap gap-4 text-sm">
        <a href={document} className={`${linkClass} inline-flex min-h-11 items-center`}>
          Printable quotation {version.label}
        </a>
        <a href={`${document}/pdf`} className={`${linkClass} inline-flex min-h-11 items-center`}>
          PDF
        </a>
      </p>
    </div>
  );
}
