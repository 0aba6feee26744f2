import type { LoaderFunctionArgs } from "@remix-run/node";
import { formatBreaks } from "~/domain/pricing";
import { formatCents } from "~/format";
import { eachPriceListForExport, type PriceListRow } from "~/models/part-price-lists.server";
import { csvFileDay, csvResponse, type CsvColumn } from "~/services/csv.server";
import { requireAdmin } from "~/services/guards.server";

/**
 * The headers the price lists import reads back: a round trip works. A price is in its line's
 * currency (plain, "37.00"); an empty one is a currency the part is not sold in.
 */
const COLUMNS: CsvColumn<PriceListRow>[] = [
  { header: "part_number", value: (row) => row.partNumber },
  { header: "currency", value: (row) => row.currency },
  {
    header: "price",
    value: (row) =>
      row.priceCents === null ? "" : formatCents(row.priceCents, { plain: true, currency: row.currency }),
  },
  { header: "breaks", value: (row) => formatBreaks(row.volumeBreaks) },
];

/** Every part's price lists as CSV: a line per part and currency, by part number. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return csvResponse(`partsworks-price-lists-${csvFileDay()}.csv`, COLUMNS, eachPriceListForExport());
}
