/**
 * Companies: every user without one gets a company of one, as its owner, and their company details,
 * tax number, billing address, address book, trade terms and caps on unpaid orders move to it. The
 * company's id is chosen first and set on the user by a conditional update that only takes a user
 * still without a company, so two instances starting at once never give a user two companies; the
 * company is written with that id (an upsert: a second pass writes nothing new), then the moved
 * fields leave the user. Then every order without a company records its placer's company and the
 * placer (placedBy).
 */
import mongoose from "mongoose";

const { ObjectId } = mongoose.Types;

const BATCH = 500;
const MOVED = [
  "companyName",
  "taxId",
  "country",
  "billingAddress",
  "addresses",
  "defaultAddressId",
  "unpaidOrdersCap",
  "unpaidValueCapCents",
  "account",
];

export async function up(db) {
  const users = db.collection("users");
  const companies = db.collection("companies");
  const orders = db.collection("orders");

  for (;;) {
    const batch = await users
      .find({ companyId: { $exists: false } })
      .limit(BATCH)
      .toArray();
    if (batch.length === 0) break;
    for (const user of batch) {
      const companyId = new ObjectId();
      const taken = await users.updateOne(
        { _id: user._id, companyId: { $exists: false } },
        { $set: { companyId, companyRole: "owner" } },
      );
      if (taken.modifiedCount !== 1) continue;
      const moved = Object.fromEntries(MOVED.filter((key) => user[key] != null).map((key) => [key, user[key]]));
      const now = new Date();
      await companies.updateOne(
        { _id: companyId },
        {
          $setOnInsert: {
            ...moved,
            ...(moved.companyName ? { nameKey: String(moved.companyName).toLowerCase() } : {}),
            ownerCount: 1,
            createdAt: user.createdAt ?? now,
            updatedAt: now,
          },
        },
        { upsert: true },
      );
    }
  }
  // The moved fields leave users that have a company (including any a crash left half-moved).
  const stray = Object.fromEntries(MOVED.map((key) => [key, ""]));
  await users.updateMany(
    { companyId: { $exists: true }, $or: MOVED.map((key) => ({ [key]: { $exists: true } })) },
    { $unset: stray },
  );

  // One update per placer, not per order (a shop has far fewer customers than orders).
  const placers = await orders.distinct("userId", { companyId: { $exists: false } });
  for (const userId of placers) {
    if (!userId) continue;
    const placer = await users.findOne({ _id: userId }, { projection: { companyId: 1 } });
    if (!placer?.companyId) continue;
    await orders.updateMany(
      { userId, companyId: { $exists: false } },
      { $set: { companyId: placer.companyId, placedBy: userId } },
    );
  }
  // What is left (a placer since deleted), order by order.
  for (;;) {
    const batch = await orders
      .find({ companyId: { $exists: false } }, { projection: { userId: 1 } })
      .limit(BATCH)
      .toArray();
    if (batch.length === 0) return;
    const placers = await users
      .find({ _id: { $in: batch.map((order) => order.userId).filter(Boolean) } }, { projection: { companyId: 1 } })
      .toArray();
    const companyOf = new Map(placers.map((user) => [String(user._id), user.companyId]));
    let moved = 0;
    for (const order of batch) {
      const companyId = companyOf.get(String(order.userId));
      // An order whose placer was deleted keeps no company (the admin still sees it by email).
      const result = await orders.updateOne(
        { _id: order._id, companyId: { $exists: false } },
        { $set: { companyId: companyId ?? null, placedBy: order.userId } },
      );
      moved += result.modifiedCount;
    }
    if (moved === 0) return;
  }
}

/** Companies stay: orders, documents and statements refer to them. */
export async function down() {}
