/**
 * Search stays proportional to what it finds, not to the catalogue: every kind of search /parts
 * answers (the bench's texts, scripts/bench/search-kinds.ts) on a synthetic catalogue, with what
 * the database itself read of the parts counted by the database (the local stand-in's
 * `localDbReads`: documents read and full scans). No search may read the whole collection, and
 * the index keeps up with every kind of write to a part.
 */
import mongoose from "mongoose";
import { beforeAll, describe, expect, test } from "vitest";
import { idsFittingVehicle } from "~/models/part-catalogue.server";
import { Part } from "~/models/part.server";
import { loader as partsLoader } from "~/routes/parts._index";
import { syncIndexes } from "~/services/db.server";
import { searchKinds } from "../../scripts/bench/search-kinds";
import { seedCatalogue } from "../../scripts/bench/seed-catalogue";
import { getRequest, loaderArgs, settle } from "../setup/requests";

const PARTS = 1200;

type PartsBody = { parts: { partNumber: string }[]; total: number };

async function loadParts(q: string, extra = "") {
  const response = await settle(partsLoader(loaderArgs(getRequest(`/parts?q=${encodeURIComponent(q)}${extra}`))));
  return { response, body: response.status === 302 ? null : ((await response.clone().json()) as PartsBody) };
}

/** What the database has read of the parts since it started: documents, and whole-collection scans. */
async function partsRead() {
  const answer = await mongoose.connection.db!.command({ localDbReads: "parts" });
  return { documents: Number(answer.documents), scans: Number(answer.scans) };
}

async function readWhile(run: () => Promise<unknown>) {
  const before = await partsRead();
  await run();
  const after = await partsRead();
  return { documents: after.documents - before.documents, scans: after.scans - before.scans };
}

beforeAll(async () => {
  await syncIndexes();
  await seedCatalogue({ parts: PARTS, customers: 1, orders: 0, reviews: 0 });
}, 300_000);

describe("a search reads what it finds, never the whole catalogue", () => {
  const kinds = Object.entries(searchKinds(2)).flatMap(([kind, texts]) => texts.map((text) => [kind, text] as const));

  test.each(kinds)("%s: “%s”", async (_kind, text) => {
    const read = await readWhile(() => loadParts(text));
    expect(read.scans).toBe(0);
    expect(read.documents).toBeLessThan(PARTS / 2);
  });

  test("with a category, in stock only, each sort and a second page", async () => {
    for (const sort of ["newest", "price-asc", "price-desc"]) {
      const read = await readWhile(async () => {
        const first = await loadParts("brake", `&sort=${sort}&stock=in`);
        expect(first.body!.parts.length).toBeGreaterThan(0);
        await loadParts("filter", `&sort=${sort}&category=filters&page=2`);
      });
      expect(read.scans).toBe(0);
      expect(read.documents).toBeLessThan(PARTS / 2);
    }
  });
});

test("the “Fits your …” check of a page reads the page's parts, not every part that fits", async () => {
  const fitting = await Part.findOne({ "fitment.0": { $exists: true } }).lean();
  const row = fitting!.fitment![0];
  const vehicle = { make: row.make, model: row.model, year: row.yearFrom };
  const others = await Part.find({ _id: { $ne: fitting!._id } })
    .select({ _id: 1 })
    .limit(11)
    .lean();
  const page = [fitting!, ...others].map((part) => part._id.toString());
  let fits: string[] = [];
  const read = await readWhile(async () => {
    fits = await idsFittingVehicle(page, vehicle);
  });
  expect(fits).toContain(fitting!._id.toString());
  expect(read.scans).toBe(0);
  expect(read.documents).toBeLessThanOrEqual(12);
});

describe("the index follows every write to a part", () => {
  const numbersOf = async (q: string) => (await loadParts(q)).body!.parts.map((part) => part.partNumber);

  test("a new part, a renamed part and a removed part are found, found by the new name, and gone", async () => {
    const part = await Part.create({
      partNumber: "SC-0001",
      name: "Quokkastrut Mount",
      description: "A part this test adds.",
      img: "/images/parts/pw-1001.svg",
      priceCents: 1200,
      availableQuantity: 300,
    });
    expect(await numbersOf("quokkastrut")).toEqual(["SC-0001"]);

    part.name = "Wombatstrut Mount";
    await part.save();
    expect(await numbersOf("quokkastrut")).toEqual([]);
    expect(await numbersOf("wombatstrut")).toEqual(["SC-0001"]);

    await Part.updateOne({ _id: part._id }, { $set: { availableQuantity: 0 } });
    expect((await loadParts("wombatstrut", "&stock=in")).body!.parts).toEqual([]);

    await Part.deleteOne({ _id: part._id });
    expect(await numbersOf("wombatstrut")).toEqual([]);
    const read = await readWhile(() => loadParts("wombatstrut"));
    expect(read.scans).toBe(0);
  });
});
