import type { LoaderFunctionArgs } from "@remix-run/node";
import { eachPartForExport, type PartExportRow } from "~/models/part-csv.server";
import { requireAdmin } from "~/services/guards.server";
import { formatBreaks } from "~/domain/pricing";
import { CATEGORY_LABELS, type Category } from "~/domain/catalogue";
import { csvDollars, csvFileDay, csvResponse, type CsvColumn } from "~/services/csv.server";

/** The headers the stock import reads back ("Part number", "Price", "Stock", …): a round trip works. */
const COLUMNS: CsvColumn<PartExportRow>[] = [
  { header: "Part number", value: (part) => part.partNumber },
  { header: "Name", value: (part) => part.name },
  { header: "Category", value: (part) => CATEGORY_LABELS[part.category as Category] ?? part.category },
  { header: "Brand", value: (part) => part.brand },
  { header: "Price", value: (part) => csvDollars(part.priceCents) },
  { header: "Stock", value: (part) => part.availableQuantity },
  { header: "Minimum order", value: (part) => part.minOrderQuantity },
  // The compact syntax of Edit Product (domain/pricing.ts), read back by the import.
  { header: "Volume breaks", value: (part) => formatBreaks(part.volumeBreaks) },
  // Backorders as the import reads them back: yes or no, a day (YYYY-MM-DD) and a number of days.
  { header: "May be backordered", value: (part) => (part.backorderable ? "yes" : "no") },
  { header: "Restock date", value: (part) => part.restockOn },
  { header: "Lead time (days)", value: (part) => part.leadTimeDays },
];

/** Manage Products as CSV: every part, by part number. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return csvResponse(`partsworks-products-${csvFileDay()}.csv`, COLUMNS, eachPartForExport());
}
