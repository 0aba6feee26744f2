/**
 * Stock holds (docs/behaviour.md, "Stock"). Each line of a live order (unpaid, on account, or paid and not
 * shipped) becomes a hold noted on its part, its units already out of availableQuantity; then
 * each part gets its on-hand figure: available plus what its holds keep. An unpaid order gets a
 * hold time from now (ORDER_HOLD_HOURS, 72 by default), so none expires the moment this runs.
 *
 * Idempotent: a hold is pushed only where the order holds none of that part, onHand is set only
 * where it is missing, and holdUntil only where it is missing.
 */
const BATCH = 500;

export async function up(db) {
  const orders = db.collection("orders");
  const parts = db.collection("parts");
  const live = orders
    .find({ status: { $in: ["unpaid", "paid", "account"] } }, { projection: { lines: 1 } })
    .batchSize(BATCH);
  for await (const order of live) {
    const lines = order.lines ?? [];
    if (lines.length === 0) continue;
    await parts.bulkWrite(
      lines.map((line) => ({
        updateOne: {
          filter: { _id: line.partId, "holds.orderId": { $ne: order._id } },
          update: { $push: { holds: { orderId: order._id, quantity: line.quantity } } },
        },
      })),
      { ordered: false },
    );
  }
  const missing = parts.find({ onHand: { $exists: false } }, { projection: { availableQuantity: 1, holds: 1 } });
  for await (const part of missing) {
    const held = (part.holds ?? []).reduce((sum, hold) => sum + (hold.quantity ?? 0), 0);
    await parts.updateOne(
      { _id: part._id, onHand: { $exists: false } },
      { $set: { onHand: (part.availableQuantity ?? 0) + held } },
    );
  }
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
