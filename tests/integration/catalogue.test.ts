/**
 * Finding the right part: part numbers typed any way, OE cross-references, category, brand,
 * stock and vehicle filters with their counts, the remembered vehicle, the exact-number redirect,
 * bad parameters, and the admin's catalogue edits; through the real loaders and actions.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { catalogueFacets } from "~/models/part-catalogue.server";
import { listPartCards } from "~/models/part-listing.server";
import { Part } from "~/models/part.server";
import { action as addAction } from "~/routes/dashboard.addProduct";
import { action as editAction, loader as editLoader } from "~/routes/dashboard.manageProducts_.$id.edit";
import { loader as partLoader } from "~/routes/parts.$id";
import { action as partsAction, loader as partsLoader } from "~/routes/parts._index";
import { PRIVATE_CACHE_CONTROL, PUBLIC_CACHE_CONTROL } from "~/services/cache.server";
import { parseFitmentLine, partNumberKey, type Category, type FitmentRow } from "~/domain/catalogue";
import { actionArgs, getRequest, loaderArgs, postRequest, settle } from "../setup/requests";
import { signedIn, snapshot } from "./ordering.helpers";

const token = () => randomUUID().replace(/-/g, "").slice(0, 8);

function fits(...lines: string[]): FitmentRow[] {
  return lines.map((line) => {
    const parsed = parseFitmentLine(line);
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.row;
  });
}

type NewPart = {
  name: string;
  partNumber?: string;
  category?: Category;
  brand?: string;
  oeNumbers?: string[];
  fitment?: FitmentRow[];
  availableQuantity?: number;
  priceCents?: number;
};

async function addPart(fields: NewPart) {
  const doc = await Part.create({
    description: "A part made for a catalogue test.",
    img: "/images/parts/pw-1001.svg",
    priceCents: 900,
    availableQuantity: 500,
    partNumber: `CT-${token().toUpperCase()}`,
    ...fields,
  });
  return { id: doc._id.toString(), name: doc.name, partNumber: doc.partNumber };
}

type PartsBody = {
  state: { q: string; category: string | null; make: string | null; model: string | null; year: number | null };
  parts: { id: string; name: string; fits: boolean }[];
  total: number;
  facets: {
    categories: { value: string; count: number }[];
    brands: { value: string; count: number }[];
    inStock: number;
  };
  fitsLabel: string | null;
  canonical: string;
  result: { error: Record<string, string[]> } | null;
};

async function loadParts(search: string, cookie?: string) {
  const response = await settle(partsLoader(loaderArgs(getRequest(`/parts?${search}`, { cookie }))));
  const body = response.status === 302 ? null : ((await response.clone().json()) as PartsBody);
  return { response, body };
}

const names = (body: PartsBody | null) => (body?.parts ?? []).map((part) => part.name).sort();

describe("part numbers and cross-references", () => {
  test("are normalised: dashes, spaces and case do not matter", () => {
    expect(partNumberKey("pw-1012")).toBe("PW1012");
    expect(partNumberKey(" PW 10-12 ")).toBe("PW1012");
    expect(partNumberKey("5Q0 615 301 F")).toBe("5Q0615301F");
  });

  test("a part number typed with or without dashes or spaces finds the part, and exactly one goes straight to it", async () => {
    const word = `Norm${token()}`;
    const part = await addPart({ name: `${word} Caliper`, partNumber: `NM-${token().toUpperCase()}-7` });
    for (const typed of [
      part.partNumber,
      part.partNumber.replace(/-/g, ""),
      part.partNumber.replace(/-/g, " ").toLowerCase(),
    ]) {
      const { response } = await loadParts(`q=${encodeURIComponent(typed)}`);
      expect(response.status, typed).toBe(302);
      expect(response.headers.get("Location")).toBe(`/parts/${part.id}`);
    }
    // The start of a number lists the parts it starts (no redirect: it is not the whole number).
    const start = part.partNumber.slice(0, 8).replace("-", " ");
    const { response, body } = await loadParts(`q=${encodeURIComponent(start)}`);
    expect(response.status).toBe(200);
    expect(body?.parts.map((p) => p.id)).toContain(part.id);
    // A page further on, or a cursor, is a list, never a redirect.
    expect((await loadParts(`q=${encodeURIComponent(part.partNumber)}&page=2`)).response.status).not.toBe(302);
  });

  test("an OE cross-reference finds its part; one shared by two parts lists both", async () => {
    const oe = `${token().toUpperCase()} 615 301`;
    const only = await addPart({ name: `Oe Only ${token()}`, oeNumbers: [oe] });
    const { response } = await loadParts(`q=${encodeURIComponent(oe.replace(/ /g, "-").toLowerCase())}`);
    expect(response.headers.get("Location")).toBe(`/parts/${only.id}`);

    const shared = `SH${token().toUpperCase()}`;
    const a = await addPart({ name: `Shared A ${token()}`, oeNumbers: [shared] });
    const b = await addPart({ name: `Shared B ${token()}`, oeNumbers: [`${shared.slice(0, 4)}-${shared.slice(4)}`] });
    const both = await loadParts(`q=${shared}`);
    expect(both.response.status).toBe(200);
    expect(both.body?.parts.map((p) => p.id).sort()).toEqual([a.id, b.id].sort());
  });
});

describe("filters", () => {
  async function catalogue() {
    const word = `Flt${token()}`;
    const brand = `Brand${token()}`;
    const golf = fits("Volkswagen Golf 2013-2020 1.4 TSI");
    const parts = {
      pads: await addPart({ name: `${word} Brake Pads`, category: "brakes", brand, fitment: golf }),
      disc: await addPart({
        name: `${word} Brake Disc`,
        category: "brakes",
        brand: "Nordwerk",
        fitment: fits("Volkswagen Golf 2004-2012"),
      }),
      filter: await addPart({
        name: `${word} Oil Filter`,
        category: "filters",
        brand,
        fitment: fits("Toyota Corolla 2010-2018"),
        availableQuantity: 0,
      }),
      bulb: await addPart({
        name: `${word} Bulb`,
        category: "lighting",
        brand,
        fitment: [...golf, ...fits("Ford Focus 2011-2018")],
      }),
    };
    return { word, brand, parts };
  }

  test("combine: category, brand, stock and vehicle narrow together, all in the URL", async () => {
    const { word, brand, parts } = await catalogue();
    const all = await loadParts(`q=${word}`);
    expect(all.body?.total).toBe(4);
    expect(names((await loadParts(`q=${word}&category=brakes`)).body)).toEqual(
      [parts.disc.name, parts.pads.name].sort(),
    );
    expect(names((await loadParts(`q=${word}&category=brakes&brand=${brand}`)).body)).toEqual([parts.pads.name]);
    expect(names((await loadParts(`q=${word}&stock=in`)).body)).not.toContain(parts.filter.name);
    expect((await loadParts(`q=${word}&stock=in`)).body?.total).toBe(3);
    // The vehicle: a make, then a model, then a year narrows step by step.
    expect((await loadParts(`q=${word}&make=Volkswagen`)).body?.total).toBe(3);
    expect((await loadParts(`q=${word}&make=Volkswagen&model=Golf`)).body?.total).toBe(3);
    expect(names((await loadParts(`q=${word}&make=Volkswagen&model=Golf&year=2016`)).body)).toEqual(
      [parts.bulb.name, parts.pads.name].sort(),
    );
    expect(names((await loadParts(`q=${word}&make=Volkswagen&model=Golf&year=2008`)).body)).toEqual([parts.disc.name]);
    expect(
      names(
        (await loadParts(`q=${word}&make=volkswagen&model=golf&year=2016&category=lighting&brand=${brand}&stock=in`))
          .body,
      ),
    ).toEqual([parts.bulb.name]);
  });

  test("count each value given the other choices, so every other value stays reachable", async () => {
    const { word, brand } = await catalogue();
    const facets = await catalogueFacets(word, { category: "brakes" });
    // Category counts ignore the chosen category...
    expect(facets.categories).toEqual([
      { value: "brakes", count: 2 },
      { value: "filters", count: 1 },
      { value: "lighting", count: 1 },
    ]);
    // ...brand and stock counts apply it.
    expect(facets.brands).toEqual([
      { value: brand, count: 1 },
      { value: "Nordwerk", count: 1 },
    ]);
    expect(facets.inStock).toBe(2);
    const forGolf = await catalogueFacets(word, {
      vehicle: { make: "Volkswagen", model: "Golf", year: 2016 },
      inStock: true,
    });
    expect(forGolf.categories).toEqual([
      { value: "brakes", count: 1 },
      { value: "lighting", count: 1 },
    ]);
    expect(forGolf.inStock).toBe(2);
    // The loader sends the same counts.
    const { body } = await loadParts(`q=${word}&category=brakes`);
    expect(body?.facets).toEqual(facets);
  });

  test("nothing found is a 200 with an empty list and the filters still shown to clear", async () => {
    const { word } = await catalogue();
    const { response, body } = await loadParts(`q=${word}&category=cooling&make=Tesla`);
    expect(response.status).toBe(200);
    expect(body?.parts).toEqual([]);
    expect(body?.total).toBe(0);
    expect(body?.state).toMatchObject({ q: word, category: "cooling", make: "Tesla" });
    // A brand nobody makes is simply empty too.
    expect((await loadParts(`brand=No${token()}`)).body?.total).toBe(0);
  });

  test("bad parameters answer 400 with a clear message, or are dropped; never a 500", async () => {
    const cases: [string, number, RegExp | null][] = [
      ["category=spaceships", 400, /no such category/],
      ["year=99999&make=Volkswagen&model=Golf", 400, /Choose a year from 1950 to 2030/],
      ["year=abc", 400, /Choose a year/],
      ["make=Trabbi", 400, /do not list that make/],
      [`q=${"x".repeat(5 * 1024)}`, 400, /100 characters at most/],
      [`brand=${"b".repeat(500)}`, 400, /no such brand/],
      ["category[$ne]=x&make[$gt]=", 200, null],
      ["stock=maybe&sort=sideways&page=-1", 200, null],
      // A model of another make (the make changed without JavaScript) and a year the model was not built: dropped.
      ["make=Toyota&model=Golf&year=2016", 200, null],
      ["make=Volkswagen&model=Golf&year=1960", 200, null],
    ];
    for (const [search, status, message] of cases) {
      const { response, body } = await loadParts(search);
      expect(response.status, search).toBe(status);
      if (message) {
        expect(
          Object.values(body?.result?.error ?? {})
            .flat()
            .join(" "),
          search,
        ).toMatch(message);
        expect(body?.parts, search).toEqual([]);
        expect(response.headers.get("Cache-Control")).toBe(PRIVATE_CACHE_CONTROL);
      }
    }
    expect((await loadParts("make=Toyota&model=Golf&year=2016")).body?.state).toMatchObject({
      make: "Toyota",
      model: null,
      year: null,
    });
    expect((await loadParts("make=Volkswagen&model=Golf&year=1960")).body?.state).toMatchObject({
      model: "Golf",
      year: null,
    });
  });

  test("the canonical URL keeps the filters in one order and drops sort and cursors", async () => {
    const { body } = await loadParts("sort=price-asc&make=Volkswagen&category=brakes&q=pad");
    expect(new URL(body!.canonical).pathname + new URL(body!.canonical).search).toBe(
      "/parts?q=pad&category=brakes&make=Volkswagen",
    );
    expect(new URL((await loadParts("")).body!.canonical).search).toBe("");
  });
});

describe("the remembered vehicle", () => {
  const cookieOf = (response: Response) =>
    response.headers
      .getSetCookie()
      .map((header) => header.split(";")[0])
      .join("; ");

  test("a whole vehicle picked is remembered in a cookie that makes the page private, and the fitting cards say so", async () => {
    const word = `Veh${token()}`;
    const fitting = await addPart({ name: `${word} Pads`, fitment: fits("Volkswagen Golf 2013-2020") });
    const other = await addPart({ name: `${word} Filter`, fitment: fits("Toyota Corolla 2010-2018") });

    const partial = await loadParts(`q=${word}&make=Volkswagen&model=Golf`);
    expect(partial.response.headers.getSetCookie()).toEqual([]);
    expect(partial.response.headers.get("Cache-Control")).toBe(PUBLIC_CACHE_CONTROL);

    const picked = await loadParts(`q=${word}&make=Volkswagen&model=Golf&year=2016`);
    expect(picked.response.headers.get("Cache-Control")).toBe(PRIVATE_CACHE_CONTROL);
    const cookie = cookieOf(picked.response);
    expect(cookie).toMatch(/^__vehicle=/);
    expect(picked.response.headers.getSetCookie()[0]).toMatch(/HttpOnly/i);
    expect(picked.response.headers.getSetCookie()[0]).not.toMatch(/Max-Age|Expires/i);
    expect(picked.body?.fitsLabel).toBe("2016 Volkswagen Golf");

    // Later, without the vehicle in the URL: all parts are listed, the fitting one marked.
    const later = await loadParts(`q=${word}`, cookie);
    expect(later.response.headers.get("Cache-Control")).toBe(PRIVATE_CACHE_CONTROL);
    expect(later.response.headers.getSetCookie()).toEqual([]);
    expect(later.body?.fitsLabel).toBe("2016 Volkswagen Golf");
    const marks = Object.fromEntries(later.body!.parts.map((part) => [part.id, part.fits]));
    expect(marks).toEqual({ [fitting.id]: true, [other.id]: false });

    // The part page says it too, signed in.
    const { cookie: session } = await signedIn();
    const both = `${session}; ${cookie}`;
    const page = async (id: string) =>
      (await (await settle(partLoader(loaderArgs(getRequest(`/parts/${id}`, { cookie: both }), { id })))).json()) as {
        vehicle: { label: string; fits: boolean } | null;
      };
    expect((await page(fitting.id)).vehicle).toEqual({ label: "2016 Volkswagen Golf", fits: true });
    expect((await page(other.id)).vehicle).toEqual({ label: "2016 Volkswagen Golf", fits: false });

    // A forged cookie is no vehicle.
    const forged = await loadParts(`q=${word}`, cookie.replace(/=.*/, "=eyJtYWtlIjoiWCJ9.forged"));
    expect(forged.body?.fitsLabel).toBeNull();

    // Forgetting it clears the cookie.
    const forget = await settle(
      partsAction(actionArgs(postRequest("/parts?index", { intent: "forget-vehicle" }, { cookie }))),
    );
    expect(forget.status).toBe(302);
    expect(forget.headers.getSetCookie()[0]).toMatch(/^__vehicle=[^;]*;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/i);
    const bad = await settle(
      partsAction(actionArgs(postRequest("/parts?index", { intent: "drop-tables" }, { cookie }))),
    );
    expect(bad.status).toBe(400);
  });
});

describe("the part page", () => {
  test("sends the catalogue data for the details and the Product JSON-LD", async () => {
    const part = await addPart({
      name: `Page Pads ${token()}`,
      category: "brakes",
      brand: "Nordwerk",
      oeNumbers: ["1K0 698 151 A"],
      fitment: fits("Volkswagen Golf 2013-2020 1.4 TSI"),
      priceCents: 4250,
    });
    const { cookie } = await signedIn();
    const response = await settle(partLoader(loaderArgs(getRequest(`/parts/${part.id}`, { cookie }), { id: part.id })));
    const body = await response.json();
    expect(body.catalogue).toEqual({
      category: "brakes",
      brand: "Nordwerk",
      oeNumbers: ["1K0 698 151 A"],
      fitment: [{ make: "Volkswagen", model: "Golf", yearFrom: 2013, yearTo: 2020, engine: "1.4 TSI" }],
    });
    const { partJsonLd } = await import("~/components/part-catalogue-details");
    const ld = JSON.parse(
      partJsonLd({ part: body.part, catalogue: body.catalogue, origin: "https://shop.example.com" }),
    );
    expect(ld).toMatchObject({
      "@context": "https://schema.org",
      "@type": "Product",
      name: part.name,
      sku: part.partNumber,
      brand: { "@type": "Brand", name: "Nordwerk" },
      offers: { "@type": "Offer", price: "42.50", priceCurrency: "USD", availability: "https://schema.org/InStock" },
    });
    // No text of a part can end the script element.
    const hostile = partJsonLd({
      part: { ...body.part, name: "</script><script>alert(1)</script>" },
      catalogue: body.catalogue,
      origin: "https://shop.example.com",
    });
    expect(hostile).not.toContain("</script>");
    expect(JSON.parse(hostile).name).toBe("</script><script>alert(1)</script>");
  });
});

describe("the admin's catalogue fields", () => {
  const oe = `9X${token().toUpperCase()}`;
  const good = () => ({
    name: `Catalogue Pads ${token()}`,
    description: "Front pads.",
    img: "/images/parts/pw-1001.svg",
    quantity: "800",
    price: "24",
    minOrderQuantity: "100",
    category: "brakes",
    brand: "Nordwerk",
    oeNumbers: `1K0 698 151 A\n${oe}-B, 5Q0698151C`,
    fitment: "Volkswagen Golf 2013-2020 1.4 TSI\nŠkoda Octavia 2013-2019",
  });

  test("Add Product stores category, brand, cross-references and fitment, and search finds them", async () => {
    const { cookie } = await signedIn("admin");
    const fields = good();
    const response = await settle(addAction(actionArgs(postRequest("/dashboard/addProduct", fields, { cookie }))));
    expect(response.status).toBe(302);
    const doc = await Part.findOne({ name: fields.name }).lean();
    expect(doc).toMatchObject({
      category: "brakes",
      brand: "Nordwerk",
      oeNumbers: ["1K0 698 151 A", `${oe}-B`, "5Q0698151C"],
      fitment: [
        { make: "Volkswagen", model: "Golf", yearFrom: 2013, yearTo: 2020, engine: "1.4 TSI" },
        { make: "Škoda", model: "Octavia", yearFrom: 2013, yearTo: 2019, engine: null },
      ],
    });
    expect(doc?.vehicleKeys).toContain("škoda|octavia|2015");
    const found = await listPartCards({
      query: `${oe.toLowerCase()} b`,
      filters: { vehicle: { make: "Škoda", model: "Octavia", year: 2015 } },
    });
    expect(found.parts.map((p) => p.name)).toEqual([fields.name]);
  });

  test("bad catalogue input is refused by the field, and nothing is written", async () => {
    const { cookie } = await signedIn("admin");
    const cases: [string, string, RegExp][] = [
      ["category", "", /Choose a category/],
      ["category", "spaceships", /Choose a category/],
      ["brand", "b".repeat(41), /40 characters or fewer/],
      ["oeNumbers", "<script>", /is not an OE number/],
      ["oeNumbers", Array.from({ length: 21 }, (_, i) => `OE${i}00`).join("\n"), /20 OE numbers at most/],
      ["fitment", "Volkswagen Golf 2013-2020\nTrabant 601 1970", /Line 2: .*unknown make/],
      ["fitment", "Volkswagen Golff 2013", /Volkswagen has no model called that/],
      ["fitment", "Volkswagen Golf 2020-2013", /first year comes after the last/],
      ["fitment", "Volkswagen Golf 1960-1970", /was built from 1997 to 2025/],
      ["fitment", "Volkswagen Golf", /write make, model, years/],
    ];
    for (const [field, value, message] of cases) {
      const before = await snapshot();
      const response = await settle(
        addAction(actionArgs(postRequest("/dashboard/addProduct", { ...good(), [field]: value }, { cookie }))),
      );
      expect(response.status, `${field}=${value}`).toBe(400);
      const body = await response.json();
      expect((body.error?.[field] ?? []).join(" "), `${field}=${value}`).toMatch(message);
      expect(await snapshot()).toEqual(before);
    }
  });

  test("Edit Product changes everything but the stock, keeps the search keys in step, and refuses a taken number", async () => {
    const { cookie } = await signedIn("admin");
    const part = await addPart({ name: `Edit Me ${token()}`, availableQuantity: 321 });
    const other = await addPart({ name: `Other ${token()}` });
    const loaded = await settle(
      editLoader(loaderArgs(getRequest(`/dashboard/manageProducts/${part.id}/edit`, { cookie }), { id: part.id })),
    );
    expect(loaded.status).toBe(200);
    const newNumber = `ED-${token().toUpperCase()}`;
    const edit = {
      name: `Edited ${token()}`,
      description: "Edited description.",
      img: "/images/parts/pw-1002.svg",
      price: "31",
      minOrderQuantity: "50",
      partNumber: newNumber.toLowerCase(),
      category: "lighting",
      brand: "Rallye",
      oeNumbers: "N 104 605 02",
      fitment: "Ford Focus 2011-2018",
    };
    const post = (fields: Record<string, string>, id = part.id) =>
      settle(editAction(actionArgs(postRequest(`/dashboard/manageProducts/${id}/edit`, fields, { cookie }), { id })));
    const saved = await post(edit);
    expect(saved.status).toBe(302);
    const doc = await Part.findById(part.id).lean();
    expect(doc).toMatchObject({
      name: edit.name,
      partNumber: newNumber,
      partNumberKey: partNumberKey(newNumber),
      priceCents: 3100,
      minOrderQuantity: 50,
      availableQuantity: 321,
      category: "lighting",
      brand: "Rallye",
      oeKeys: ["N10460502"],
    });
    expect(doc?.vehicleKeys).toContain("ford|focus|2015");
    expect(doc?.vehicleKeys).not.toContain("volkswagen");
    expect(doc?.terms).toEqual(expect.arrayContaining(["edited", "rallye", "lighting", "n10460502", "ligh"]));
    expect(doc?.words).toEqual(expect.arrayContaining(["edited", "rallye", "lighting", "n10460502"]));

    // Another part's number, written differently, is taken.
    const before = await snapshot({ partIds: [part.id] });
    const taken = await post({ ...edit, partNumber: other.partNumber.replace(/-/g, "").toLowerCase() });
    expect(taken.status).toBe(400);
    expect((await taken.json()).error.partNumber).toEqual(["That part number is already in use"]);
    expect(await snapshot({ partIds: [part.id] })).toEqual(before);
    const missing = await post({ ...edit, partNumber: `ZZ-${token()}` }, "0".repeat(24));
    expect(missing.status).toBe(404);

    // Customers cannot edit.
    const { cookie: customer } = await signedIn();
    const refused = await settle(
      editAction(
        actionArgs(postRequest(`/dashboard/manageProducts/${part.id}/edit`, edit, { cookie: customer }), {
          id: part.id,
        }),
      ),
    );
    expect(refused.status).toBe(302);
    expect(refused.headers.get("Location")).toBe("/login");
  });
});

describe("parts stored before the catalogue fields", () => {
  test("get their search keys and defaults from the backfill; a number that clashes as a key is reported", async () => {
    const { backfillCatalogueKeys } = await import("~/models/part-catalogue.server");
    const number = `OLD-${token().toUpperCase()}`;
    const old = {
      description: "Old.",
      img: "/images/parts/pw-1001.svg",
      priceCents: 100,
      minOrderQuantity: 100,
      availableQuantity: 5,
    };
    const { insertedId } = await Part.collection.insertOne({
      ...old,
      name: `Legacy Hose ${token()}`,
      partNumber: number,
    });
    const { insertedId: clash } = await Part.collection.insertOne({
      ...old,
      name: "Legacy Twin",
      partNumber: number.replace("-", " "),
    });
    const result = await backfillCatalogueKeys();
    expect(result.updated).toBeGreaterThanOrEqual(1);
    expect(result.conflicts).toEqual([number.replace("-", " ")]);
    expect(await Part.findById(insertedId).lean()).toMatchObject({
      partNumberKey: partNumberKey(number),
      category: "other",
      brand: "PartsWorks",
    });
    expect((await listPartCards({ query: number.replace("-", "") })).parts.map((p) => p.id)).toEqual([
      insertedId.toString(),
    ]);
    await Part.collection.deleteOne({ _id: clash });
  });
});
