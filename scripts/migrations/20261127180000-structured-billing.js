/**
 * Companies' billing addresses get fields (app/domain/address.ts), as the address book's entries did
 * (20261127150000-structured-addresses.js). A billing address typed as free text before is read into
 * fields where that is certain: an optional first line naming the company itself, one or two street
 * lines, then "City, ST 12345" with a real US state (and "USA" at most after it). Every other one keeps
 * its text, which documents print as before, and is flagged `billingNeedsConfirmation`: the company
 * form shows the text and what could be read, for an owner to check and save.
 *
 * The reading rule is a copy of parseLegacyAddress as it stood when this ran (a migration does not
 * change with the code). Idempotent: only companies with billing text and neither fields nor a flag
 * are touched, each with a conditional update.
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

function parse(text, companyName) {
  const lines = String(text)
    .split(/\r?\n/)
    .map((piece) => piece.trim().replace(/\s+/g, " ").slice(0, 100))
    .filter(Boolean);
  if (lines.length > 1 && US_NAMES.has(lines.at(-1).toUpperCase())) lines.pop();
  // A billing address often starts with the company's own name: that is the company line.
  const company =
    companyName && lines.length > 2 && lines[0].toLowerCase() === String(companyName).trim().toLowerCase()
      ? lines.shift()
      : "";
  const match = US_PLACE.exec(lines.at(-1) ?? "");
  const street = lines.slice(0, -1);
  if (
    match &&
    US_STATES.has(match[2]) &&
    street.length >= 1 &&
    street.length <= 2 &&
    !CONTROL.test(text) &&
    !street.some((piece) => OTHER_PLACE.test(piece.toUpperCase()))
  ) {
    return {
      name: "",
      company,
      line1: street[0],
      line2: street[1] ?? "",
      city: match[1].replace(/,$/, "").trim(),
      region: match[2],
      postalCode: match[3],
      country: "US",
    };
  }
  return null;
}

export async function up(db) {
  const companies = db.collection("companies");
  const todo = {
    billingAddress: { $exists: true, $nin: [null, ""] },
    billing: { $exists: false },
    billingNeedsConfirmation: { $exists: false },
  };
  const cursor = companies.find(todo, { projection: { billingAddress: 1, companyName: 1 } });
  for await (const company of cursor) {
    const billing = parse(company.billingAddress, company.companyName);
    // One company not yet done, as read just above.
    await companies.updateOne(
      { _id: company._id, ...todo },
      { $set: billing ? { billing } : { billingNeedsConfirmation: true } },
    );
  }
}

/** The text of every billing address was kept: dropping the fields and flags returns to free text. */
export async function down(db) {
  await db.collection("companies").updateMany({}, { $unset: { billing: "", billingNeedsConfirmation: "" } });
}
