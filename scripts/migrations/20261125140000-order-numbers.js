/**
 * Orders get numbers (SO-100001, …). Every order without one, oldest first (by when it was placed),
 * takes the next value of the `order` counter (the one new orders draw from, moved on with an
 * atomic $inc) and is set by a conditional update that only numbers an order still without one,
 * so two instances starting at once never give an order two numbers nor a number twice. The same
 * pass writes the lower-case PO number and company name that Manage Orders searches by.
 */
const BASE = 100000;
const BATCH = 500;

export async function up(db) {
  const orders = db.collection("orders");
  const users = db.collection("users");
  const counters = db.collection("counters");
  for (;;) {
    const batch = await orders
      .find({ number: { $exists: false } })
      .sort({ createdAt: 1, _id: 1 })
      .limit(BATCH)
      .toArray();
    if (batch.length === 0) return;
    const owners = await users
      .find({ _id: { $in: batch.map((order) => order.userId).filter(Boolean) } }, { projection: { companyName: 1 } })
      .toArray();
    const companies = new Map(owners.map((user) => [String(user._id), user.companyName ?? ""]));
    for (const order of batch) {
      const counter = await counters.findOneAndUpdate(
        { _id: "order" },
        { $inc: { seq: 1 } },
        { upsert: true, returnDocument: "after" },
      );
      const seq = (counter && "value" in counter ? counter.value : counter).seq;
      const companyName = companies.get(String(order.userId)) || "";
      const searchKeys = [order.poNumber, companyName].filter(Boolean).map((key) => key.toLowerCase());
      await orders.updateOne(
        { _id: order._id, number: { $exists: false } },
        {
          $set: {
            number: BASE + seq,
            ...(companyName ? { companyName } : {}),
            ...(searchKeys.length ? { searchKeys } : {}),
            ...(order.paidCents === undefined ? { paidCents: order.paidAt ? order.totalCents : 0 } : {}),
          },
        },
      );
    }
  }
}

/** Numbers stay: they were printed on documents and sent in mail. */
export async function down() {}
