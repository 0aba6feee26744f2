/**
 * Every order names its currency (docs/decisions/0011-money-and-currency.md): orders kept before
 * currencies were data were sold in US dollars. Idempotent: only orders without one are touched, so a
 * second run changes nothing.
 */
export async function up(db) {
  await db.collection("orders").updateMany({ currency: { $exists: false } }, { $set: { currency: "USD" } });
}

export async function down(db) {
  await db.collection("orders").updateMany({ currency: "USD" }, { $unset: { currency: "" } });
}
