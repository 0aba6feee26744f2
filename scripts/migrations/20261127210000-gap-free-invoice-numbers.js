/**
 * Invoice numbers become a gap-free sequence like credit notes' (docs/behaviour.md, "Invoice numbers"):
 * a number is never given back, so a later invoice never takes an earlier one. The `invoice_numbers`
 * registry names its order `owner` (was `orderId`), and both registries get a unique index on `owner`,
 * so an order or a credit note claims one number. Where an owner already holds more than one claim
 * (two racing claims before the index), the claim whose number the order or note carries is kept,
 * else the lowest. The invoice counter and its list of given-back numbers are no longer read.
 * Idempotent: a second run finds nothing to rename, nothing duplicated and the index in place.
 */

/** The numbers that orders and credit notes carry, to know which of an owner's claims is in use. */
async function numbersInUse(db, registry) {
  const used = new Set();
  const projection = registry === "invoice_numbers" ? { invoiceNumber: 1 } : { "creditNotes.number": 1 };
  const filter =
    registry === "invoice_numbers" ? { invoiceNumber: { $exists: true } } : { "creditNotes.0": { $exists: true } };
  for await (const order of db.collection("orders").find(filter, { projection })) {
    if (order.invoiceNumber) used.add(order.invoiceNumber);
    for (const note of order.creditNotes ?? []) if (note.number) used.add(note.number);
  }
  return used;
}

async function oneClaimPerOwner(db, registry) {
  const claims = new Map();
  for await (const claim of db
    .collection(registry)
    .find({}, { projection: { owner: 1 } })
    .sort({ _id: 1 })) {
    claims.set(claim.owner, [...(claims.get(claim.owner) ?? []), claim._id]);
  }
  const doubled = [...claims.values()].filter((numbers) => numbers.length > 1);
  if (!doubled.length) return;
  const used = await numbersInUse(db, registry);
  for (const numbers of doubled) {
    const kept = numbers.find((number) => used.has(number)) ?? numbers[0];
    await db.collection(registry).deleteMany({ _id: { $in: numbers.filter((number) => number !== kept) } });
  }
}

async function uniqueOwnerIndex(db, registry) {
  const indexes = await db
    .collection(registry)
    .indexes()
    .catch(() => []);
  const existing = indexes.find((index) => index.name === "owner_1");
  if (existing?.unique) return;
  if (existing) await db.collection(registry).dropIndex("owner_1");
  await db.collection(registry).createIndex({ owner: 1 }, { unique: true, sparse: true, name: "owner_1" });
}

export async function up(db) {
  await db
    .collection("invoice_numbers")
    .updateMany({ orderId: { $exists: true }, owner: { $exists: false } }, { $rename: { orderId: "owner" } });
  for (const registry of ["invoice_numbers", "credit_note_numbers"]) {
    await oneClaimPerOwner(db, registry);
    await uniqueOwnerIndex(db, registry);
  }
  await db.collection("counters").updateOne({ _id: "invoice" }, { $unset: { free: "" } });
}

export async function down(db) {
  const indexes = await db
    .collection("invoice_numbers")
    .indexes()
    .catch(() => []);
  if (indexes.some((index) => index.name === "owner_1")) await db.collection("invoice_numbers").dropIndex("owner_1");
  await db
    .collection("invoice_numbers")
    .updateMany({ owner: { $exists: true }, orderId: { $exists: false } }, { $rename: { owner: "orderId" } });
}
