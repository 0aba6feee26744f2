/**
 * Addresses get fields (app/domain/address.ts). The address book's entries, typed as free text
 * before, are read into fields where that is certain: one or two street lines, then "City, ST 12345"
 * with a real US state (and "USA" at most after it). Every other entry keeps its text, gets the
 * fields that could be placed, and is flagged `needsConfirmation`: the order form asks the customer
 * to check it, and the first order to it confirms it. Orders keep their text as it was: their tax was
 * decided when they were placed.
 *
 * The reading rule is a copy of parseLegacyAddress as it stood when this ran (a migration does not
 * change with the code). Idempotent: only entries with neither fields nor a flag are touched, each
 * with a conditional update.
 */
const US_STATES = new Set(
  "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY".split(
    " ",
  ),
);
const US_NAMES = new Set(["US", "USA", "U.S.A.", "U.S.", "UNITED STATES", "UNITED STATES OF AMERICA"]);
const US_PLACE = /^(.+?),\s*([A-Z]{2})\s+(\d{5}(?:-\d{4})?)$/;
/** A state and ZIP code anywhere else in the text makes the reading uncertain (which one is meant?). */
const OTHER_PLACE = /\b[A-Z]{2}\s+\d{5}\b/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

function parse(text) {
  const lines = String(text)
    .split(/\r?\n/)
    .map((piece) => piece.trim().replace(/\s+/g, " ").slice(0, 100))
    .filter(Boolean);
  if (lines.length > 1 && US_NAMES.has(lines.at(-1).toUpperCase())) lines.pop();
  const match = US_PLACE.exec(lines.at(-1) ?? "");
  const street = lines.slice(0, -1);
  const empty = { name: "", company: "", line1: "", line2: "", city: "", region: "", postalCode: "", country: "" };
  if (
    match &&
    US_STATES.has(match[2]) &&
    street.length >= 1 &&
    street.length <= 2 &&
    !CONTROL.test(text) &&
    !street.some((piece) => OTHER_PLACE.test(piece.toUpperCase()))
  ) {
    return {
      certain: true,
      postal: {
        ...empty,
        line1: street[0],
        line2: street[1] ?? "",
        city: match[1].replace(/,$/, "").trim(),
        region: match[2],
        postalCode: match[3],
        country: "US",
      },
    };
  }
  return { certain: false, postal: null };
}

export async function up(db) {
  const companies = db.collection("companies");
  const cursor = companies.find(
    { addresses: { $elemMatch: { postal: { $exists: false }, needsConfirmation: { $exists: false } } } },
    { projection: { addresses: 1 } },
  );
  for await (const company of cursor) {
    for (const entry of company.addresses) {
      if (entry.postal || entry.needsConfirmation !== undefined) continue;
      const { certain, postal } = parse(entry.address ?? "");
      // The entry by its id (the positional operator follows it); one not yet done, as read just above.
      await companies.updateOne(
        { _id: company._id, "addresses._id": entry._id },
        { $set: certain ? { "addresses.$.postal": postal } : { "addresses.$.needsConfirmation": true } },
      );
    }
  }
}

/** The text of every entry was kept: dropping the fields and flags returns to free text. */
export async function down(db) {
  await db
    .collection("companies")
    .updateMany({}, { $unset: { "addresses.$[].postal": "", "addresses.$[].needsConfirmation": "" } });
}
