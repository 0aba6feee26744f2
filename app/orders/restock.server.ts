/**
 * Stock that arrives (Manage Products' save, the CSV import, the staff stock API) goes to the orders
 * waiting on backorder first, oldest first. The parts services change the stock; the order module,
 * above them, gives what arrived to its orders.
 */
import { savePriceAndStock } from "~/services/parts.server";
import { applyImportChanges } from "~/services/stock-import.server";
import { allocateArrivedStock } from "./warehouse.server";

/** Manage Products' price and stock save; `waiting` is how many backordered orders the stock that arrived went to. */
export async function restockPart(...args: Parameters<typeof savePriceAndStock>) {
  const saved = await savePriceAndStock(...args);
  if (!saved.ok) return saved;
  const { arrived, ...rest } = saved;
  return { ...rest, waiting: arrived ? await allocateArrivedStock([saved.part.id]) : 0 };
}

/** A dry run's changes applied (the import's Apply, the stock API), then the stock that arrived allocated. */
export async function applyStockChanges(...args: Parameters<typeof applyImportChanges>) {
  const { applied, conflicts, restocked } = await applyImportChanges(...args);
  if (restocked.length) await allocateArrivedStock(restocked);
  return { applied, conflicts };
}
