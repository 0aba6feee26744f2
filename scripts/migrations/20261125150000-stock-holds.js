/**
 * Stock holds (docs/behaviour.md, "Stock"). Each line of a live order (unpaid, on account, or paid and not
 * shipped) becomes a hold noted on its part, its units already out of availableQuantity; then
 * each part gets its on-hand figure: available plus what its holds keep. An unpaid order gets a
 * hold time from now (ORDER_HOLD_HOURS, 72 by default), so none expires the moment this runs.
 *
 * Idempotent: a hold is pushed only where the order holds none of that part, onHand is set only
 * where it is missing, and holdUntil only where it is missing.
 */
const BATCH = 1000;

/**
 * Collects update operations and writes them `BATCH` at a time (one round trip each, not one per
 * document: at 100,000 parts that is minutes less at start-up). `ordered` keeps a part's holds in
 * the order the orders were read, as one write per order did.
 */
function batchedWrites(collection, { ordered }) {
  let ops = [];
  const flush = async () => {
    if (ops.length === 0) return;
    const chunk = ops;
    ops = [];
    await collection.bulkWrite(chunk, { ordered });
  };
  return {
    flush,
    async add(op) {
      ops.push(op);
      if (ops.length >= BATCH) await flush();
    },
  };
}

export async function up(db) {
  const orders = db.collection("orders");
  const parts = db.collection("parts");
  const holds = batchedWrites(parts, { ordered: true });
  const live = orders
    .find({ status: { $in: ["unpaid", "paid", "account"] } }, { projection: { lines: 1 } })
    .batchSize(BATCH);
  for await (const order of live) {
    for (const line of order.lines ?? []) {
      await holds.add({
        updateOne: {
          filter: { _id: line.partId, "holds.orderId": { $ne: order._id } },
          update: { $push: { holds: { orderId: order._id, quantity: line.quantity } } },
        },
      });
    }
  }
  await holds.flush();
  const onHand = batchedWrites(parts, { ordered: false });
  const missing = parts
    .find({ onHand: { $exists: false } }, { projection: { availableQuantity: 1, holds: 1 } })
    .batchSize(BATCH);
  for await (const part of missing) {
    const held = (part.holds ?? []).reduce((sum, hold) => sum + (hold.quantity ?? 0), 0);
    await onHand.add({
      updateOne: {
        filter: { _id: part._id, onHand: { $exists: false } },
        update: { $set: { onHand: (part.availableQuantity ?? 0) + held } },
      },
    });
  }
  await onHand.flush();
  const hours = Number(process.env.ORDER_HOLD_HOURS) || 72;
  await orders.updateMany(
    { status: "unpaid", holdUntil: { $exists: false } },
    { $set: { holdUntil: new Date(Date.now() + hours * 60 * 60 * 1000) } },
  );
}

/** The holds and on-hand figures go; the orders keep their stock as before (available is unchanged). */
export async function down(db) {
  await db.collection("parts").updateMany({}, { $unset: { holds: "", onHand: "" } });
  await db.collection("orders").updateMany({}, { $unset: { holdUntil: "", holdReminderAt: "" } });
}
