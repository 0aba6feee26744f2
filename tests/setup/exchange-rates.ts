/**
 * The ECB's rates of the test fixture (tests/fixtures/ecb/eurofxref-hist-90d.xml: 24 to 26 November
 * 2026) written to the test's database, so an invoice with EU VAT dated on or after them prints.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { writeRates } from "~/models/exchange-rate.server";
import { readEcbFile } from "~/services/ecb-file.server";

export const ECB_FIXTURES = path.resolve("tests/fixtures/ecb");

export async function seedEcbRates() {
  const name = "eurofxref-hist-90d.xml";
  const file = new File([await readFile(path.join(ECB_FIXTURES, name))], name);
  const read = await readEcbFile(file, new Date().toISOString().slice(0, 10));
  if (!read.ok) throw new Error(read.message);
  await writeRates(read.rows, "ecb-file", "tests");
}
