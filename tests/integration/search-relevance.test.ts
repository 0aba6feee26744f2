/**
 * What buyers type and what they must find first: a relevance table over the demo catalogue and
 * parts this file creates, through the real /parts loader and GET /api/v1/parts, on the real
 * database. Each row: the text, the parts that must be among the first three, and parts that
 * must not be listed at all.
 */
import mongoose from "mongoose";
import { beforeAll, describe, expect, test } from "vitest";
import { createApiKey } from "~/models/api-key.server";
import { rebuildCatalogueVocabulary } from "~/models/part-catalogue.server";
import { Part } from "~/models/part.server";
import { parseFitmentLine, type Category, type FitmentRow } from "~/domain/catalogue";
import { ensureDemoData } from "~/demo/data.server";
import { loader as apiPartsLoader } from "~/routes/api.v1.parts._index";
import { loader as partsLoader } from "~/routes/parts._index";
import { parsePad } from "~/forms/quick-order";
import { checkPadLines } from "~/services/quick-order.server";
import { createUser } from "../setup/factories";
import { getRequest, loaderArgs, settle } from "../setup/requests";

type PartsBody = {
  parts: { id: string; partNumber: string; name: string }[];
  total: number;
  typedVehicle: { label: string; rest: string } | null;
  missingNumbers: string[] | null;
  forgiven: boolean;
  suggestions: { q: string; label: string }[];
};

async function loadParts(q: string) {
  const response = await settle(partsLoader(loaderArgs(getRequest(`/parts?q=${encodeURIComponent(q)}`))));
  const body = response.status === 302 ? null : ((await response.clone().json()) as PartsBody);
  return { response, body };
}

const fits = (...lines: string[]): FitmentRow[] =>
  lines.map((line) => {
    const parsed = parseFitmentLine(line);
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.row;
  });

/** Parts a test creates, by their own part numbers (the table names parts by number). */
const CREATED: { partNumber: string; name: string; category: Category; oeNumbers?: string[]; fitment: FitmentRow[] }[] =
  [
    {
      partNumber: "SR-2001",
      name: "Aluminum Intake Manifold",
      category: "engine",
      fitment: fits("Ford Focus 2012-2018"),
    },
    {
      partNumber: "SR-2002",
      name: "Headlamp Assembly Left",
      category: "lighting",
      fitment: fits("Honda Civic 2016-2021"),
    },
    { partNumber: "SR-2003", name: "Waterpump Gasket", category: "cooling", fitment: fits("Toyota Corolla 2010-2018") },
    {
      partNumber: "SR-2004",
      name: "Rear Shocks Pair",
      category: "suspension",
      fitment: fits("Volkswagen Golf 2013-2020"),
    },
    { partNumber: "SR-2005", name: "Basket Liner", category: "other", fitment: [] },
    { partNumber: "SR-2006", name: "Gasket Set", category: "engine", oeNumbers: ["GS 778 100"], fitment: [] },
  ];

beforeAll(async () => {
  await ensureDemoData();
  for (const part of CREATED) {
    await Part.create({
      description: "A part made for the search relevance table.",
      img: "/images/parts/pw-1001.svg",
      priceCents: 1500,
      availableQuantity: 800,
      ...part,
    });
  }
});

/** [typed, must be among the first three, must not be listed] */
const TABLE: [string, string[], string[]][] = [
  // Words as typed, plurals and endings.
  ["brake pads", ["PW-1001"], ["PW-1003", "PW-1008"]],
  ["pads", ["PW-1001"], ["PW-1005"]],
  ["spark plugs", ["PW-1005"], ["PW-1001"]],
  ["intake manifolds", ["SR-2001"], ["PW-1008"]],
  // Synonyms and British/American spellings, both ways.
  ["break pads", ["PW-1001"], ["PW-1008"]],
  ["headlamp", ["PW-1012", "SR-2002"], ["PW-1001"]],
  ["head light", ["PW-1012", "SR-2002"], ["PW-1005"]],
  ["shocks", ["PW-1006", "SR-2004"], ["PW-1001"]],
  ["shock absorbers", ["PW-1006", "SR-2004"], ["PW-1003"]],
  ["aluminum radiator", ["PW-1010"], ["PW-1008"]],
  ["aluminium manifold", ["SR-2001"], ["PW-1010"]],
  // Words run together or apart.
  ["sparkplug", ["PW-1005"], ["PW-1003"]],
  ["waterpump", ["PW-1008", "SR-2003"], ["PW-1005"]],
  ["water pump gasket", ["SR-2003"], ["PW-1005", "SR-2005"]],
  // Typing errors, when nothing has the words as typed.
  ["oil filtr", ["PW-1003"], ["PW-1012", "PW-1001"]],
  ["radaitor", ["PW-1010"], ["PW-1008"]],
  ["manifodl", ["SR-2001"], ["SR-2006"]],
  ["iridum spark plug", ["PW-1005"], ["PW-1001"]],
  // A whole word is not widened to its near spellings.
  ["gasket", ["SR-2006", "SR-2003"], ["SR-2005"]],
  // A vehicle in the text narrows to what fits it.
  ["toyota", ["PW-1003", "PW-1010"], ["PW-1001", "SR-2001"]],
  ["corolla radiator", ["PW-1010"], ["PW-1003", "PW-1012"]],
  ["golf", ["SR-2004"], ["PW-1003", "SR-2001"]],
  ["golf shocks", ["SR-2004"], ["PW-1001", "PW-1003"]],
  ["civic headlamp", ["SR-2002"], ["PW-1003"]],
  // Part and OE numbers.
  ["PW1003 PW1005", ["PW-1003", "PW-1005"], ["PW-1001"]],
  ["sr-2006, PW 1012", ["SR-2006", "PW-1012"], ["PW-1001"]],
];

describe("the relevance table", () => {
  test.each(TABLE)("“%s” lists %j first and never %j", async (typed, first, never) => {
    const { response, body } = await loadParts(typed);
    expect(response.status).toBe(200);
    const numbers = body!.parts.map((part) => part.partNumber);
    expect(numbers.slice(0, 3)).toEqual(expect.arrayContaining(first));
    for (const number of never) expect(numbers).not.toContain(number);
  });

  test("a whole part or OE number goes straight to its part", async () => {
    const gasket = await Part.findOne({ partNumber: "SR-2006" }).lean();
    for (const typed of ["sr2006", "SR-2006", "gs-778-100"]) {
      const { response } = await loadParts(typed);
      expect(response.status, typed).toBe(302);
      expect(response.headers.get("Location")).toBe(`/parts/${gasket!._id.toString()}`);
    }
  });
});

describe("how the page says what it did", () => {
  test("a vehicle in the text: the page names it, and the link searches the rest without it", async () => {
    const { body } = await loadParts("Toyota Corolla radiator");
    expect(body!.typedVehicle).toEqual(expect.objectContaining({ label: "Toyota Corolla", rest: "radiator" }));
    const { body: alone } = await loadParts("toyota");
    expect(alone!.typedVehicle).toEqual(expect.objectContaining({ label: "Toyota", rest: "" }));
    expect(alone!.parts.length).toBeGreaterThan(0);
  });

  test("several numbers: exactly those parts in the order typed, and the ones not found named", async () => {
    const { body } = await loadParts("pw-1005\nXX-9999, PW1003 pw1005 QQ 123");
    expect(body!.parts.map((part) => part.partNumber)).toEqual(["PW-1005", "PW-1003"]);
    expect(body!.missingNumbers).toEqual(["XX-9999", "QQ123"]);
    expect(body!.total).toBe(2);
  });

  test("typing errors forgiven are said so; words as typed are not", async () => {
    expect((await loadParts("oil filtr")).body!.forgiven).toBe(true);
    expect((await loadParts("oil filter")).body!.forgiven).toBe(false);
  });

  test("did you mean: near part numbers, near words, and each word alone when together they find nothing", async () => {
    const number = await loadParts("PW-1099");
    expect(number.body!.parts).toEqual([]);
    expect(number.body!.suggestions.map((entry) => entry.q)).toEqual(expect.arrayContaining(["PW-1009"]));

    const apart = await loadParts("radiator wipers");
    expect(apart.body!.parts).toEqual([]);
    expect(apart.body!.suggestions.map((entry) => entry.q)).toEqual(expect.arrayContaining(["radiator", "wipers"]));

    const far = await loadParts("zzqx");
    expect(far.body!.parts).toEqual([]);
    expect(far.body!.suggestions).toEqual([]);
  });
});

describe("GET /api/v1/parts", () => {
  async function call(q: string) {
    const user = await createUser({ role: "customer" });
    const { token } = await createApiKey({
      ownerId: user.id,
      companyId: user.companyId,
      name: "Search",
      scopes: ["read"],
    });
    const request = new Request(`http://localhost/api/v1/parts?q=${encodeURIComponent(q)}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const response = await settle(apiPartsLoader(loaderArgs(request)));
    return {
      status: response.status,
      body: (await response.json()) as {
        data: { partNumber: string }[];
        notFound?: string[];
        vehicle?: { make: string; model: string | null };
        forgiven?: boolean;
      },
    };
  }

  test("the same forgiving search: typing errors, vehicles and several numbers", async () => {
    const typo = await call("radaitor");
    expect(typo.status).toBe(200);
    expect(typo.body.data.map((part) => part.partNumber)).toContain("PW-1010");
    expect(typo.body.forgiven).toBe(true);

    const vehicle = await call("corolla radiator");
    expect(vehicle.body.vehicle).toEqual({ make: "Toyota", model: "Corolla", year: null });
    expect(vehicle.body.data.map((part) => part.partNumber)).toEqual(["PW-1010"]);

    const numbers = await call("PW1005, nope-1, PW1003");
    expect(numbers.body.data.map((part) => part.partNumber)).toEqual(["PW-1005", "PW-1003"]);
    expect(numbers.body.notFound).toEqual(["nope-1"]);
  });
});

describe("the quick-order pad", () => {
  test("an unknown part number names the nearest ones; a far one names none", async () => {
    const [near, far] = await checkPadLines(parsePad("PW1030 100\nZZ-1 100"));
    expect(near.problem?.message).toBe("Unknown part number PW1030 (did you mean PW-1010 or PW-1009?)");
    expect(far.problem?.message).toBe("Unknown part number ZZ-1");
  });
});

describe("what a search reads", () => {
  type Read = { collection: string; method: string; filter: Record<string, unknown>; options: Record<string, unknown> };

  /** Every read the driver is asked for while `run` runs (mongoose's debug hook sees each one). */
  async function readsOf(run: () => Promise<unknown>) {
    const reads: Read[] = [];
    mongoose.set("debug", (collection: string, method: string, ...args: unknown[]) => {
      if (method === "aggregate") {
        const [pipeline] = args as [{ $match?: Record<string, unknown> }[]];
        reads.push({ collection, method, filter: pipeline[0]?.$match ?? {}, options: {} });
      } else if (["find", "findOne", "countDocuments", "distinct"].includes(method)) {
        const [filter, , options] = args as [Record<string, unknown>, unknown, Record<string, unknown>];
        reads.push({ collection, method, filter: filter ?? {}, options: options ?? {} });
      }
    });
    try {
      await run();
    } finally {
      mongoose.set("debug", false);
    }
    return reads;
  }

  /** The first field of every index on the parts, and `_id`. */
  const leads = () => new Set(["_id", ...Part.schema.indexes().map(([fields]) => Object.keys(fields)[0])]);
  const uniqueLeads = () =>
    new Set([
      "_id",
      ...Part.schema
        .indexes()
        .filter(([, options]) => options?.unique)
        .map(([fields]) => Object.keys(fields)[0]),
    ]);

  const isEquality = (value: unknown) =>
    typeof value === "string" ||
    value instanceof mongoose.Types.ObjectId ||
    (typeof value === "object" && value !== null && ("$in" in value || "$all" in value));
  const isRange = (value: unknown) =>
    typeof value === "object" && value !== null && Object.keys(value).every((key) => /^\$(l|g)te?$/.test(key));

  /**
   * Whether an index bounds the filter: an equality on the first field of an index (itself or in
   * its $and), every branch of an $or so bounded, or a range on a unique key's first field.
   */
  function bounded(filter: Record<string, unknown>): boolean {
    const members = Array.isArray(filter.$and) ? (filter.$and as Record<string, unknown>[]) : [filter];
    return members.some((member) => {
      if (Array.isArray(member.$and) && bounded(member)) return true;
      if (Array.isArray(member.$or)) return (member.$or as Record<string, unknown>[]).every(bounded);
      return Object.entries(member).some(
        ([key, value]) => (leads().has(key) && isEquality(value)) || (uniqueLeads().has(key) && isRange(value)),
      );
    });
  }

  const KINDS = [
    "brake pads",
    "pads",
    "break pads",
    "sparkplug",
    "water pump gasket",
    "oil filtr",
    "manifodl",
    "corolla radiator",
    "toyota",
    "PW1003 PW1005",
    "sr2006",
    "PW-1099",
    "radiator wipers",
    "iridium radaitor wipers",
    "zzqx",
  ];

  test.each(KINDS)(
    "“%s”: every read of the parts is bounded by an index, the vocabulary is read by key",
    async (typed) => {
      const reads = await readsOf(() => loadParts(typed));
      const parts = reads.filter((read) => read.collection === "parts");
      expect(parts.length).toBeGreaterThan(0);
      for (const read of parts)
        expect(bounded(read.filter), `${read.method} ${JSON.stringify(read.filter)}`).toBe(true);
      const vocabulary = reads.filter((entry) => entry.collection === "searchvocabulary");
      // A mistyped or unknown word is looked up in the vocabulary.
      if (/filtr|manifodl|radaitor|zzqx|wipers/.test(typed)) expect(vocabulary.length).toBeGreaterThan(0);
      for (const read of vocabulary) {
        expect(Object.keys(read.filter), JSON.stringify(read.filter)).toEqual(["_id"]);
        expect(isEquality(read.filter._id), JSON.stringify(read.filter)).toBe(true);
      }
      // Near words come from the vocabulary: no read of the parts asks for a deletion key.
      expect(JSON.stringify(parts.map((read) => read.filter))).not.toMatch(/"~/);
    },
  );

  test.each(["PW1003 PW1005", "sr2006", "gs-778-100", "pw-1005\nXX-9999, PW1003"])(
    "“%s”: part and OE numbers are read by unique keys alone (the local stand-in's only indexes)",
    async (typed) => {
      const reads = (await readsOf(() => loadParts(typed))).filter((read) => read.collection === "parts");
      expect(reads.length).toBeGreaterThan(0);
      for (const read of reads) {
        const [key, ...more] = Object.keys(read.filter);
        expect(more, JSON.stringify(read.filter)).toEqual([]);
        expect(uniqueLeads().has(key) && isEquality(read.filter[key]), JSON.stringify(read.filter)).toBe(true);
      }
    },
  );

  test("an OE number a part is given finds it at once; one it dropped no longer does", async () => {
    const part = await Part.findOne({ partNumber: "SR-2006" });
    part!.oeNumbers = ["GS 778 200"];
    await part!.save();
    try {
      const added = await loadParts("gs-778-200");
      expect(added.response.status).toBe(302);
      expect(added.response.headers.get("Location")).toBe(`/parts/${part!._id.toString()}`);
      const dropped = await loadParts("gs-778-100");
      expect(dropped.response.status).toBe(200);
    } finally {
      part!.oeNumbers = ["GS 778 100"];
      await part!.save();
    }
    expect((await loadParts("gs-778-100")).response.status).toBe(302);
  });

  test("a word a part is given is a correction at once; a rebuild forgets a word no part has", async () => {
    const part = await Part.findOne({ partNumber: "SR-2005" });
    part!.name = "Zephyrine Basket Liner";
    await part!.save();
    const found = await loadParts("zephyrnie");
    expect(found.body!.parts.map((entry) => entry.partNumber)).toEqual(["SR-2005"]);
    expect(found.body!.forgiven).toBe(true);

    part!.name = "Basket Liner";
    await part!.save();
    await rebuildCatalogueVocabulary();
    const gone = await loadParts("zephyrnie");
    expect(gone.body!.parts).toEqual([]);
    expect(gone.body!.suggestions.map((entry) => entry.q)).not.toContain("zephyrine");
    // What the rebuild counted still finds its parts.
    expect((await loadParts("radaitor")).body!.parts.map((entry) => entry.partNumber)).toContain("PW-1010");
  });
});
