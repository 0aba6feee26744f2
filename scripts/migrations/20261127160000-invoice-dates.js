/**
 * One invoice date (docs/behaviour.md, "Invoices"): an invoice is dated when it was issued, an order
 * on account when it was confirmed (its due date less its terms), any other order when it was paid.
 * Invoices numbered later than that (a back-dated order, or one first numbered when its invoice was
 * opened) were dated the day they were numbered; each gets its issue date. Idempotent: only invoices
 * dated later than their issue date, or not dated at all, are touched, each with a conditional update.
 */
const DAY_MS = 24 * 60 * 60 * 1000;

function issueDate(order) {
  if (order.dueAt && order.termsDays != null) return new Date(order.dueAt.getTime() - order.termsDays * DAY_MS);
  return order.paidAt ?? null;
}

export async function up(db) {
  const orders = db.collection("orders");
  const cursor = orders.find(
    { invoiceNumber: { $exists: true } },
    { projection: { invoicedAt: 1, dueAt: 1, termsDays: 1, paidAt: 1 } },
  );
  let batch = [];
  for await (const order of cursor) {
    const issued = issueDate(order);
    if (!issued) continue;
    // A minute's slack: a live invoice is numbered moments after its payment or confirmation.
    if (order.invoicedAt && order.invoicedAt.getTime() <= issued.getTime() + 60_000) continue;
    batch.push({
      updateOne: {
        filter: { _id: order._id, invoicedAt: order.invoicedAt ?? { $exists: false } },
        update: { $set: { invoicedAt: issued } },
      },
    });
    if (batch.length === 500) {
      await orders.bulkWrite(batch, { ordered: false });
      batch = [];
    }
  }
  if (batch.length) await orders.bulkWrite(batch, { ordered: false });
}

/** The dates stay: the day each invoice was numbered is not kept. */
export async function down() {}
