/**
 * Orders get lines. An order of the first shape held one part in its own fields (partId,
 * productName, unitPriceCents, orderQuantity, priceCents); it becomes an order of one line with
 * the same part, name, unit price and quantity, the part number looked up from the part (empty if
 * the part was deleted), and totalCents = its price. Nothing else of the order changes.
 *
 * Idempotent: only orders without lines are touched, each by a conditional update, so two
 * instances starting at once cannot convert an order twice.
 */
const BATCH = 500;
const OLD_FIELDS = { partId: "", productName: "", unitPriceCents: "", priceCents: "", orderQuantity: "" };

export async function up(db) {
  const orders = db.collection("orders");
  const parts = db.collection("parts");
  let after = null;
  for (;;) {
    const filter = { lines: { $exists: false }, ...(after ? { _id: { $gt: after } } : {}) };
    const batch = await orders.find(filter).sort({ _id: 1 }).limit(BATCH).toArray();
    if (batch.length === 0) return;
    after = batch[batch.length - 1]._id;
    const partIds = [...new Set(batch.map((order) => order.partId).filter(Boolean))];
    const found = await parts.find({ _id: { $in: partIds } }, { projection: { partNumber: 1 } }).toArray();
    const numbers = new Map(found.map((part) => [String(part._id), part.partNumber]));
    await orders.bulkWrite(
      batch.map((order) => {
        const quantity = order.orderQuantity ?? 0;
        const total = order.priceCents ?? (order.unitPriceCents ?? 0) * quantity;
        const line = {
          partId: order.partId,
          partNumber: numbers.get(String(order.partId)) ?? "",
          productName: order.productName ?? "",
          unitPriceCents: order.unitPriceCents ?? (quantity ? Math.round(total / quantity) : 0),
          quantity,
          lineTotalCents: total,
        };
        return {
          updateOne: {
            filter: { _id: order._id, lines: { $exists: false } },
            update: { $set: { lines: [line], totalCents: total }, $unset: OLD_FIELDS },
          },
        };
      }),
      { ordered: false },
    );
  }
}

/** Back to one part per order; refused while any order has more than one line (it would lose lines). */
export async function down(db) {
  const orders = db.collection("orders");
  if (await orders.findOne({ "lines.1": { $exists: true } })) {
    throw new Error("Orders with several lines exist: they cannot go back to one part per order");
  }
  for await (const order of orders.find({ lines: { $exists: true } })) {
    const [line] = order.lines;
    await orders.updateOne(
      { _id: order._id, lines: { $exists: true } },
      {
        $set: {
          partId: line.partId,
          productName: line.productName,
          unitPriceCents: line.unitPriceCents,
          orderQuantity: line.quantity,
          priceCents: order.totalCents,
        },
        $unset: { lines: "", totalCents: "" },
      },
    );
  }
}
