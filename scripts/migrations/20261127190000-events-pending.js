/**
 * An order's events whose mail and webhooks are still to be written were noted in `mailPending`;
 * they are events, not mail (webhooks and the audit hear of them too), so the field is now
 * `eventsPending`. Idempotent: only orders still holding the old field are touched, and a sweep
 * that runs meanwhile on the old field finds nothing left to do.
 */
export async function up(db) {
  await db
    .collection("orders")
    .updateMany({ mailPending: { $exists: true } }, { $rename: { mailPending: "eventsPending" } });
}

export async function down(db) {
  await db
    .collection("orders")
    .updateMany({ eventsPending: { $exists: true } }, { $rename: { eventsPending: "mailPending" } });
}
