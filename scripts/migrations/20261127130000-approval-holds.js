/**
 * Orders waiting for an owner's approval hold their stock for the same window as unpaid card orders
 * (docs/behaviour.md, "Stock"). Each one still without an end to its hold gets one from now
 * (ORDER_HOLD_HOURS, 72 by default), so none expires the moment this runs. Idempotent: only orders
 * without a hold end are touched.
 */
export async function up(db) {
  const hours = Number(process.env.ORDER_HOLD_HOURS) || 72;
  await db
    .collection("orders")
    .updateMany(
      { status: "approval", holdUntil: { $exists: false } },
      { $set: { holdUntil: new Date(Date.now() + hours * 60 * 60 * 1000) } },
    );
}

/** The waits lose their end again (as before: held until an owner decides). */
export async function down(db) {
  await db.collection("orders").updateMany({ status: "approval" }, { $unset: { holdUntil: "" } });
}
