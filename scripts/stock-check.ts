import { checkStock, saveStockCheck } from "../app/orders/model/stock-check.server";
import { withDb } from "./with-db";

/**
 * npm run stock:check
 * Compares every part's stock with what live orders hold (docs/behaviour.md, "Stock"), prints each
 * difference (and every credit or refund beyond what was charged or paid), and exits 1 when there is one (0 when the stock adds up). The result also goes to
 * Shop Today. Run it against MONGODB_URI, or the local database while the shop is stopped.
 */
const settleSeconds = Number(process.env.STOCK_RESERVE_DEADLINE_SECONDS ?? 30);
const result = await withDb(async () => {
  const checked = await checkStock({ settleMs: settleSeconds * 1000 });
  await saveStockCheck(checked);
  return checked;
});
if (result.problems.length === 0) {
  console.log(
    `Stock adds up: ${result.parts} parts checked, available + held by orders = on hand for each; ` +
      "returns and credits add up (no credit beyond what was charged, no refund beyond what was paid).",
  );
} else {
  console.log(`${result.problems.length} stock differences in ${result.parts} parts:`);
  for (const problem of result.problems) console.log(`  ${problem.partNumber} ${problem.name}: ${problem.message}`);
  process.exitCode = 1;
}
