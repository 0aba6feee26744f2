/**
 * Manage Orders finds an order by the name of the member who placed it (first, last or whole name)
 * and ignores accents: every order gets those search keys beside its PO number and company name
 * (app/orders/model/search-keys.server.ts derives the same for new orders). Keys are added to the set,
 * never replaced, so a second run (or a second instance) changes nothing. 1,000 orders per write.
 */
const fold = (text) =>
  text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();

function keysOf(order) {
  const keys = [];
  for (const value of [order.poNumber, order.companyName]) {
    if (value) keys.push(String(value).toLowerCase(), fold(String(value)));
  }
  if (order.userName) {
    const words = fold(String(order.userName)).split(" ");
    keys.push(...words.map((_, index) => words.slice(index).join(" ")));
    keys.push(...words.flatMap((word) => word.split("-")).filter((word) => word.length > 1));
  }
  return [...new Set(keys.filter(Boolean))];
}

export async function up(db) {
  const orders = db.collection("orders");
  const cursor = orders.find({}, { projection: { poNumber: 1, companyName: 1, userName: 1 } });
  let batch = [];
  for await (const order of cursor) {
    const keys = keysOf(order);
    if (keys.length)
      batch.push({ updateOne: { filter: { _id: order._id }, update: { $addToSet: { searchKeys: { $each: keys } } } } });
    if (batch.length >= 1000) {
      await orders.bulkWrite(batch, { ordered: false });
      batch = [];
    }
  }
  if (batch.length) await orders.bulkWrite(batch, { ordered: false });
}

/** The extra keys do no harm to the older code, which matches prefixes of the same array. */
export async function down() {}
