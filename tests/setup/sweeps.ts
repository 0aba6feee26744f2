/**
 * Every sweep that finishes what a workflow leaves after its change stands, run now with no grace
 * time (what the stock sweep and the order event sweep do a minute later): cart claims, stock
 * pending, units of returns back on the shelf, backorders, credit notes and refunds, invoice
 * numbers, then the order events (mail, webhooks) those raised or left noted, and the ledger.
 */
import { settleLeftStock, settleStaleCartClaims } from "~/orders/model/holds.server";
import { numberInvoicesLeft } from "~/orders/model/invoice.server";
import { settleLeftReturns } from "~/orders/model/returns.server";
import { sweepCreditsLeft } from "~/orders/credit-notes.server";
import { sweepOrderEvents } from "~/orders/event-sweep.server";
import { postLedgerLeft } from "~/orders/ledger.server";
import { allocateArrivedStock, allocateLeftBackorders } from "~/orders/warehouse.server";

export async function runSweepsNow() {
  await settleStaleCartClaims({ before: new Date(Date.now() + 86_400_000) });
  await settleLeftStock({ graceMs: 0 });
  const restocked = await settleLeftReturns({ graceMs: 0 });
  if (restocked.length) await allocateArrivedStock(restocked);
  await allocateLeftBackorders();
  await sweepCreditsLeft({ graceMs: 0 });
  await numberInvoicesLeft({ graceMs: 0 });
  await sweepOrderEvents({ graceMs: 0 });
  await postLedgerLeft();
}
