/**
 * API keys and webhooks belong to the company: every customer's key and every endpoint that hears
 * of a customer's own orders takes its maker's company (`companyId`); the maker stays (`ownerId`).
 * An admin's staff keys and endpoints for every order stay the admin's. One update per maker, each
 * only on documents still without a company, so a second run (or a second instance) writes nothing.
 */
export async function up(db) {
  const users = db.collection("users");
  const keys = db.collection("api_keys");
  const endpoints = db.collection("webhookendpoints");

  const keyMakers = await keys.distinct("ownerId", { companyId: { $exists: false } });
  for (const ownerId of keyMakers) {
    const maker = await users.findOne({ _id: ownerId }, { projection: { role: 1, companyId: 1 } });
    // A staff key keeps no company; a key whose maker is gone already stopped working and stays as it is.
    if (!maker || maker.role === "admin" || !maker.companyId) continue;
    await keys.updateMany({ ownerId, companyId: { $exists: false } }, { $set: { companyId: maker.companyId } });
  }

  const endpointMakers = await endpoints.distinct("ownerId", { scope: "own", companyId: { $exists: false } });
  for (const ownerId of endpointMakers) {
    const maker = await users.findOne({ _id: ownerId }, { projection: { companyId: 1 } });
    if (!maker?.companyId) continue;
    await endpoints.updateMany(
      { ownerId, scope: "own", companyId: { $exists: false } },
      { $set: { companyId: maker.companyId } },
    );
  }
}

/** The company stays on keys and endpoints: the older code reads `ownerId` only and ignores it. */
export async function down() {}
