/**
 * The words a restock is reported in (Manage Products' save, the CSV import's summary): what
 * arrived, what of it went to the orders waiting on backorder (which orders), and what is left to
 * sell. Shared by the server and the browser.
 */
import { formatQuantity } from "~/format";

/** Orders named in full; more are counted ("and 4 more"), so a big restock's message stays a line. */
const NAMED_ORDERS = 5;

/**
 * "300 received: 200 allocated to 3 backorders (SO-100001, SO-100002, SO-100003), 100 now available",
 * or "300 received, 300 now available" when nothing waited. `allocations`: one entry per order (or
 * per part and order) that got stock; `available`: the part's available stock after them.
 */
export function restockText({
  received,
  allocations,
  available,
}: {
  received: number;
  allocations: { orderId: string; orderNumber: string; quantity: number }[];
  available: number;
}) {
  const now = `${formatQuantity(available)} now available`;
  const allocated = allocations.reduce((sum, entry) => sum + entry.quantity, 0);
  if (allocated <= 0) return `${formatQuantity(received)} received, ${now}`;
  const orders = new Map(allocations.map((entry) => [entry.orderId, entry.orderNumber]));
  const numbers = [...orders.values()].filter(Boolean);
  const named = numbers.slice(0, NAMED_ORDERS).join(", ");
  const more = numbers.length > NAMED_ORDERS ? ` and ${formatQuantity(numbers.length - NAMED_ORDERS)} more` : "";
  const which = named ? ` (${named}${more})` : "";
  const count = `${formatQuantity(orders.size)} ${orders.size === 1 ? "backorder" : "backorders"}`;
  return `${formatQuantity(received)} received: ${formatQuantity(allocated)} allocated to ${count}${which}, ${now}`;
}
