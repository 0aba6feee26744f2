/**
 * Companies: every user without one gets a company of one, as its owner, and their company details,
 * tax number, billing address, address book, trade terms and caps on unpaid orders move to it. The
 * company's id is chosen first and set on the user by a conditional update that only takes a user
 * still without a company, so two instances starting at once never give a user two companies; the
 * company is written with that id (an upsert: a second pass writes nothing new), then the moved
 * fields leave the user. Then every order without a company records its placer's company and the
 * placer (placedBy). Written a batch at a time (bulkWrite), not a document at a time: a shop of
 * 20,000 orders upgrades in seconds.
 */
import mongoose from "mongoose";

const { ObjectId } = mongoose.Types;

const BATCH = 1000;
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
    const chosen = batch.map((user) => ({ user, companyId: new ObjectId() }));
    await users.bulkWrite(
      chosen.map(({ user, companyId }) => ({
        updateOne: {
          filter: { _id: user._id, companyId: { $exists: false } },
          update: { $set: { companyId, companyRole: "owner" } },
        },
      })),
      { ordered: false },
    );
    // Only the users this pass took get their company (another instance may have taken some first).
    const taken = await users
      .find({ _id: { $in: batch.map((user) => user._id) } }, { projection: { companyId: 1 } })
      .toArray();
    const companyOfUser = new Map(taken.map((user) => [String(user._id), String(user.companyId)]));
    const mine = chosen.filter(({ user, companyId }) => companyOfUser.get(String(user._id)) === String(companyId));
    if (mine.length === 0) continue;
    const now = new Date();
    await companies.bulkWrite(
      mine.map(({ user, companyId }) => {
        const moved = Object.fromEntries(MOVED.filter((key) => user[key] != null).map((key) => [key, user[key]]));
        return {
          updateOne: {
            filter: { _id: companyId },
            update: {
              $setOnInsert: {
                ...moved,
                ...(moved.companyName ? { nameKey: String(moved.companyName).toLowerCase() } : {}),
                ownerCount: 1,
                createdAt: user.createdAt ?? now,
                updatedAt: now,
              },
            },
            upsert: true,
          },
        };
      }),
      { ordered: false },
    );
  }
  // The moved fields leave users that have a company (including any a crash left half-moved).
  const stray = Object.fromEntries(MOVED.map((key) => [key, ""]));
  await users.updateMany(
    { companyId: { $exists: true }, $or: MOVED.map((key) => ({ [key]: { $exists: true } })) },
    { $unset: stray },
  );

  // Every order without a company takes its placer's, a batch of orders at a time: one read of
  // their placers and one write. An order whose placer was deleted keeps no company (the admin
  // still sees it by email).
  const pending = orders.find({ companyId: { $exists: false } }, { projection: { userId: 1 } }).batchSize(BATCH);
  let batch = [];
  const write = async () => {
    if (batch.length === 0) return;
    const placers = await users
      .find({ _id: { $in: batch.map((order) => order.userId).filter(Boolean) } }, { projection: { companyId: 1 } })
      .toArray();
    const companyOf = new Map(placers.map((user) => [String(user._id), user.companyId]));
    await orders.bulkWrite(
      batch.map((order) => ({
        updateOne: {
          filter: { _id: order._id, companyId: { $exists: false } },
          update: { $set: { companyId: companyOf.get(String(order.userId)) ?? null, placedBy: order.userId } },
        },
      })),
      { ordered: false },
    );
    batch = [];
  };
  for await (const order of pending) {
    batch.push(order);
    if (batch.length >= BATCH) await write();
  }
  await write();
}

/** Companies stay: orders, documents and statements refer to them. */
export async function down() {}
