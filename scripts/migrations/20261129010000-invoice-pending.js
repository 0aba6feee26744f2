/**
 * Invoiced orders are marked `invoicePending` in the same update that makes them invoiceable, and the
 * stock sweep numbers what a crash left so. Orders a crash left without their number before the mark
 * existed (paid, shipped or on account, or cancelled with a credit note to issue or issued) are marked
 * now, so the sweep numbers them too. Idempotent: a marked or numbered order is not touched again.
 */
export async function up(db) {
  await db.collection("orders").updateMany(
    {
      invoiceNumber: { $exists: false },
      invoicePending: { $exists: false },
      $or: [
        { status: { $in: ["paid", "shipped", "account"] } },
        { status: "cancelled", $or: [{ creditPending: true }, { "creditNotes.0": { $exists: true } }] },
      ],
    },
    { $set: { invoicePending: true } },
  );
}

export async function down(db) {
  await db.collection("orders").updateMany({ invoicePending: { $exists: true } }, { $unset: { invoicePending: "" } });
}
