/**
 * Stock that arrives (Manage Products' save, the CSV import, the staff stock API) goes to the orders
 * waiting on backorder first, oldest first. The parts services change the stock; the order module,
 * above them, gives what arrived to its orders and says what went where (restockText).
 */
import { restockText } from "~/domain/restock";
import { savePriceAndStock } from "~/services/parts.server";
import { applyImportChanges, type ImportRestock } from "~/services/stock-import.server";
import { allocateArrivedStock, type ArrivedAllocation } from "./warehouse.server";

/**
 * Manage Products' price and stock save. `restock`, when the stock rose: the units received, the
 * backorders they went to (`allocations`, per order), what is available after them, and that in words.
 */
export async function restockPart(...args: Parameters<typeof savePriceAndStock>) {
  const saved = await savePriceAndStock(...args);
  if (!saved.ok) return saved;
  const { arrived, ...rest } = saved;
  if (!arrived) return { ...rest, restock: null };
  const allocations = await allocateArrivedStock([saved.part.id]);
  return {
    ...rest,
    restock: describeRestock({ received: arrived, available: saved.part.availableQuantity }, allocations),
  };
}

/**
 * A dry run's changes applied (the import's Apply, the stock API), then the stock that arrived
 * allocated. `filled`: the lines whose stock went (in part) to backorders, each with its words.
 */
export async function applyStockChanges(...args: Parameters<typeof applyImportChanges>) {
  const { applied, conflicts, restocked } = await applyImportChanges(...args);
  const allocations = restocked.length ? await allocateArrivedStock(restocked.map((row) => row.partId)) : [];
  const filled = restocked.flatMap((row: ImportRestock) => {
    const own = allocations.filter((entry) => entry.partId === row.partId);
    if (!own.length) return [];
    const { line, partId, partNumber, name } = row;
    return [{ line, partId, partNumber, name, ...describeRestock(row, own) }];
  });
  return { applied, conflicts, filled };
}

/** What a restock of one part did: `available` is the part's stock before the allocations took theirs. */
function describeRestock(
  { received, available }: { received: number; available: number },
  allocations: ArrivedAllocation[],
) {
  const allocated = allocations.reduce((sum, entry) => sum + entry.quantity, 0);
  const left = Math.max(0, available - allocated);
  const words = restockText({ received, allocations, available: left });
  return { received, allocations, available: left, words };
}
