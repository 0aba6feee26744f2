import { checkLedger } from "../app/orders/ledger.server";
import { withDb } from "./with-db";

/**
 * npm run ledger:check
 * Proves that every invoiced order's ledger entries add up, event by event, to what its invoice,
 * payments, card payment, credit notes, refunds and payouts say, that each entry is on the order's
 * account, and that no order is credited beyond what it was invoiced (docs/decisions/0009-ledger.md).
 * Exits 1 naming each difference. Run it against MONGODB_URI, or the local database while the shop
 * is stopped; orders changed in the last LEDGER_CHECK_GRACE_SECONDS (default 0) are left to the sweep.
 */
const graceSeconds = Number(process.env.LEDGER_CHECK_GRACE_SECONDS ?? 0);
const result = await withDb(() => checkLedger({ graceMs: graceSeconds * 1000 }));
if (result.problems.length === 0) {
  console.log(
    `The ledger adds up: ${result.orders} invoiced orders, ${result.accounts} accounts; every money event posted once, ` +
      "no order credited beyond its invoice.",
  );
} else {
  console.log(`${result.problems.length} ledger differences in ${result.orders} invoiced orders:`);
  for (const problem of result.problems) console.log(`  ${problem.orderNumber}: ${problem.message}`);
  process.exitCode = 1;
}
