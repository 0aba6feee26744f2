/**
 * A synthetic, reproducible catalogue for the benchmark: parts with realistic field sizes, the
 * customers who ordered them, an order book and reviews. Written with the driver's insertMany in
 * batches (no per-document Mongoose work), into whatever database Mongoose is connected to.
 */
import { Types } from "mongoose";
import { Order } from "../../app/orders/model/schema.server";
import { catalogueKeys } from "../../app/domain/part-search-keys";
import { Part } from "../../app/models/part.server";
import { rebuildCatalogueVocabulary } from "../../app/models/part-catalogue.server";
import { VEHICLE_MAKES } from "../../app/content/vehicles";
import { company } from "../../app/content/company";
import { DEFAULT_BRAND, type Category, type FitmentRow } from "../../app/domain/catalogue";
import { Review } from "../../app/models/review.server";
import { User } from "../../app/models/user.server";
import { Company } from "../../app/models/company.server";
import { Counter } from "../../app/models/counter.server";
import { ORDER_NUMBER_BASE } from "../../app/domain/order-number";

/** A small deterministic PRNG, so that two runs seed the same catalogue. */
export function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MATERIALS = [
  "Ceramic",
  "Semi-Metallic",
  "Forged",
  "Cast Iron",
  "Aluminium",
  "Stainless",
  "Carbon",
  "Heavy-Duty",
  "Low-Dust",
  "Performance",
  "OE-Grade",
  "Reinforced",
];
const COMPONENTS = [
  "Brake Pad Set",
  "Brake Disc",
  "Brake Caliper",
  "Oil Filter",
  "Air Filter",
  "Cabin Filter",
  "Fuel Pump",
  "Spark Plug",
  "Ignition Coil",
  "Shock Absorber",
  "Coil Spring",
  "Control Arm",
  "Tie Rod End",
  "Wheel Bearing",
  "Timing Belt Kit",
  "Water Pump",
  "Thermostat",
  "Radiator",
  "Alternator",
  "Starter Motor",
  "Clutch Kit",
  "Drive Shaft",
  "CV Joint",
  "Exhaust Manifold",
  "Catalytic Converter",
  "Oxygen Sensor",
  "Wiper Blade",
  "Headlight Bulb",
  "Tail Lamp",
  "Door Mirror",
  "Engine Mount",
  "Serpentine Belt",
  "Fuel Injector",
  "Glow Plug",
  "Turbo Hose",
  "Intercooler",
  "Brake Hose",
  "Hub Assembly",
];
/** The category of each component above. */
const COMPONENT_CATEGORIES: Record<string, Category> = {
  "Brake Pad Set": "brakes",
  "Brake Disc": "brakes",
  "Brake Caliper": "brakes",
  "Brake Hose": "brakes",
  "Oil Filter": "filters",
  "Air Filter": "filters",
  "Cabin Filter": "filters",
  "Fuel Pump": "engine",
  "Fuel Injector": "engine",
  "Engine Mount": "engine",
  "Timing Belt Kit": "engine",
  "Serpentine Belt": "engine",
  "Turbo Hose": "engine",
  Intercooler: "engine",
  "Spark Plug": "ignition",
  "Ignition Coil": "ignition",
  "Glow Plug": "ignition",
  "Shock Absorber": "suspension",
  "Coil Spring": "suspension",
  "Control Arm": "suspension",
  "Wheel Bearing": "suspension",
  "Hub Assembly": "suspension",
  "Tie Rod End": "steering",
  "Water Pump": "cooling",
  Thermostat: "cooling",
  Radiator: "cooling",
  Alternator: "electrical",
  "Starter Motor": "electrical",
  "Oxygen Sensor": "electrical",
  "Clutch Kit": "transmission",
  "Drive Shaft": "transmission",
  "CV Joint": "transmission",
  "Exhaust Manifold": "exhaust",
  "Catalytic Converter": "exhaust",
  "Wiper Blade": "wipers",
  "Headlight Bulb": "lighting",
  "Tail Lamp": "lighting",
  "Door Mirror": "other",
};
const BRANDS = [DEFAULT_BRAND, ...company.brands.map((brand) => brand.name)];
const MODELS = VEHICLE_MAKES.flatMap((make) => make.models.map((model) => ({ make: make.name, model })));

/** One to four vehicles, each a realistic stretch (3 to 10 years) of the model's production years. */
function syntheticFitment(rand: () => number): FitmentRow[] {
  const rows: FitmentRow[] = [];
  const count = 1 + Math.floor(rand() * 4);
  for (let i = 0; i < count; i++) {
    const { make, model } = pick(rand, MODELS);
    if (rows.some((row) => row.make === make && row.model === model.name)) continue;
    const span = Math.min(model.to - model.from, 3 + Math.floor(rand() * 8));
    const yearFrom = model.from + Math.floor(rand() * (model.to - model.from - span + 1));
    const engine = model.engines.length && rand() < 0.5 ? pick(rand, model.engines) : null;
    rows.push({ make, model: model.name, yearFrom, yearTo: yearFrom + span, engine });
  }
  return rows;
}

/** One or two OE numbers in a carmaker's style, such as "5Q0 615 301 F" or "04152-YZZA1". */
function syntheticOeNumbers(rand: () => number, index: number) {
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(rand() * 10)).join("");
  const styles = [
    () => `${digits(1)}K${digits(1)} ${digits(3)} ${digits(3)} ${"ABCDEF"[index % 6]}`,
    () => `${digits(5)}-${digits(5)}`,
    () => `${digits(11)}`,
  ];
  return Array.from({ length: 1 + Math.floor(rand() * 2) }, () => pick(rand, styles)());
}

const SPECS = [
  "300 mm",
  "320 mm",
  "H7",
  "H4",
  "12 V",
  "24 V",
  "150 A",
  "M14",
  "Front Left",
  "Front Right",
  "Rear",
  "Front Axle",
  "Rear Axle",
  "Kit of 4",
  "Pair",
  "Single",
];
const SENTENCES = [
  "Made to the original equipment specification and tested on our own line before it ships.",
  "Precision machined surfaces keep noise and vibration down over the whole service life.",
  "A corrosion-resistant coating protects it in storage and through salted winter roads.",
  "Supplied with the fitting hardware, seals and a printed installation sheet.",
  "Suits workshops that service mixed fleets of passenger cars and light vans.",
  "Every batch carries a traceable lot number printed on the box and the part.",
  "Rated for continuous operation from minus 40 to plus 120 degrees Celsius.",
  "Bulk packed in recyclable cartons of ten to save space on the workshop shelf.",
  "Drop-in replacement: no cutting, drilling or reprogramming needed.",
  "Backed by a two-year warranty when fitted by a professional workshop.",
];

const DAY = 24 * 60 * 60 * 1000;

export type CatalogueSize = { parts: number; customers: number; orders: number; reviews: number };

/**
 * The shape the documents are written in. `current`: as the shop writes them today, so a shop
 * started on the catalogue has no migration to run (the caller records them all applied, as
 * on a new database). `before-stock-holds`: as a shop had them before the stock-holds and
 * companies migrations (no holds, on-hand figures, hold times, companies, nor an order's company and
 * placer), to measure those migrations on a catalogue of this size (scripts/bench/migrations.ts).
 */
export type SeedShape = "current" | "before-stock-holds";

/** Orders in these states hold their stock (app/domain/order-states.ts). */
const LIVE_STATUSES = new Set(["unpaid", "paid", "account"]);
/** How long a seeded unpaid order holds its stock: the shop's default (ORDER_HOLD_HOURS). */
const HOLD_MS = 72 * 60 * 60 * 1000;

export type SeedReport = CatalogueSize & {
  seconds: { parts: number; customers: number; orders: number; reviews: number; total: number };
  partsPerSecond: number;
  /** Some of the seeded parts, to aim at (ids), and a word that search finds. */
  samplePartIds: string[];
  searchWord: string;
  /** Many different searches (/parts addresses): words, prefixes, two words, with filters. */
  searches: string[];
  /** Many different vehicles, some with a category: what the picker and filters ask for. */
  vehicleFilters: string[];
};

const partsPath = (params: Record<string, string | number>) =>
  `/parts?${new URLSearchParams(Object.entries(params).map(([key, value]) => [key, String(value)]))}`;

/**
 * What buyers type into the search: each component's words whole and as the first letters typed
 * so far, two words at once, and a word with a category and "in stock only".
 */
export function benchSearches() {
  const words = [...new Set(COMPONENTS.flatMap((component) => component.toLowerCase().split(" ")))];
  const searches: string[] = [];
  for (const [index, word] of words.entries()) {
    searches.push(partsPath({ q: word }));
    if (word.length > 4) searches.push(partsPath({ q: word.slice(0, 4) }));
    const material = MATERIALS[index % MATERIALS.length].toLowerCase();
    searches.push(partsPath({ q: `${material} ${word}` }));
    const category = COMPONENT_CATEGORIES[COMPONENTS.find((c) => c.toLowerCase().includes(word)) ?? ""];
    if (category) searches.push(partsPath({ q: word, category, stock: "in" }));
  }
  return searches;
}

/** A vehicle of every make (make, model and a year), alone and with a category. */
export function benchVehicleFilters() {
  const categories = [...new Set(Object.values(COMPONENT_CATEGORIES))];
  return VEHICLE_MAKES.flatMap((make, index) =>
    make.models.slice(0, 2).flatMap((model) => {
      const vehicle = { make: make.name, model: model.name, year: Math.round((model.from + model.to) / 2) };
      return [partsPath(vehicle), partsPath({ ...vehicle, category: categories[index % categories.length] })];
    }),
  );
}

function pick<T>(rand: () => number, list: readonly T[]) {
  return list[Math.floor(rand() * list.length)];
}

export function syntheticPart(index: number, rand: () => number, now: number) {
  const component = pick(rand, COMPONENTS);
  const name = `${pick(rand, MATERIALS)} ${component} ${pick(rand, SPECS)}`;
  const sentences = 2 + Math.floor(rand() * 4);
  const description = Array.from({ length: sentences }, () => pick(rand, SENTENCES)).join(" ");
  // Spread over the last two years, one part every few minutes, newest last.
  const createdAt = new Date(now - 2 * 365 * DAY + index * 600_000 + Math.floor(rand() * 60_000));
  const partNumber = `BN-${String(index + 1).padStart(6, "0")}`;
  const catalogue = {
    category: COMPONENT_CATEGORIES[component] ?? "other",
    brand: pick(rand, BRANDS),
    oeNumbers: syntheticOeNumbers(rand, index),
    fitment: syntheticFitment(rand),
  };
  return {
    _id: new Types.ObjectId(),
    name,
    partNumber,
    ...catalogue,
    // Written with the driver, so the search keys the model derives on save are set here.
    ...catalogueKeys({ ...catalogue, partNumber, name }),
    description,
    img: `/images/parts/pw-${1001 + (index % 12)}.svg`,
    priceCents: 100 * (2 + Math.floor(rand() * 400)),
    minOrderQuantity: 100,
    // About one part in ten is out of stock, so "in stock only" has something to hide.
    availableQuantity: rand() < 0.1 ? 0 : Math.floor(rand() * 50_000),
    createdAt,
    updatedAt: createdAt,
  };
}

async function inBatches<T>(
  total: number,
  size: number,
  make: (index: number) => T,
  write: (docs: T[]) => Promise<unknown>,
) {
  for (let start = 0; start < total; start += size) {
    const docs: T[] = [];
    for (let index = start; index < Math.min(total, start + size); index++) docs.push(make(index));
    await write(docs);
  }
}

/** `write` over `items` in chunks of `size` (one round trip each). */
export async function inChunks<T>(items: T[], size: number, write: (chunk: T[]) => Promise<unknown>) {
  for (let start = 0; start < items.length; start += size) await write(items.slice(start, start + size));
}

export async function seedCatalogue(
  size: CatalogueSize,
  { log = () => {}, shape = "current" }: { log?: (line: string) => void; shape?: SeedShape } = {},
): Promise<SeedReport> {
  const current = shape === "current";
  const rand = random(20240611);
  const now = Date.now() - 60_000;
  const started = performance.now();
  const seconds = { parts: 0, customers: 0, orders: 0, reviews: 0, total: 0 };
  const mark = (key: keyof typeof seconds, since: number) => (seconds[key] = (performance.now() - since) / 1000);

  const parts: {
    _id: Types.ObjectId;
    name: string;
    partNumber: string;
    priceCents: number;
    availableQuantity: number;
  }[] = [];
  let since = performance.now();
  let lastLog = since;
  let inserted = 0;
  await inBatches(
    size.parts,
    1000,
    (index) => {
      const part = syntheticPart(index, rand, now);
      // What it has on hand; the parts that live orders hold get their holds once the orders exist.
      return current ? { ...part, onHand: part.availableQuantity } : part;
    },
    async (docs) => {
      await Part.collection.insertMany(docs, { ordered: false });
      inserted += docs.length;
      // Orders and reviews refer to a sample of the parts, spread over the whole catalogue.
      for (const doc of docs) if (parts.length < 2000 || rand() < 0.005) parts.push(doc);
      if (performance.now() - lastLog > 10_000) {
        lastLog = performance.now();
        log(`  ${inserted} parts after ${Math.round((lastLog - since) / 1000)} s`);
      }
    },
  );
  // The catalogue's vocabulary ("did you mean", typing errors), as the shop builds it at start.
  if (current) log(`  ${await rebuildCatalogueVocabulary()} words in the vocabulary`);
  mark("parts", since);
  log(`  ${size.parts} parts in ${seconds.parts.toFixed(1)} s`);

  since = performance.now();
  const customers: { _id: Types.ObjectId; email: string; name: string; companyId?: Types.ObjectId }[] = [];
  await inBatches(
    size.customers,
    500,
    (index) => {
      const createdAt = new Date(now - 365 * DAY + index * 60_000);
      return {
        _id: new Types.ObjectId(),
        email: `bench-customer-${index + 1}@example.com`,
        name: `Bench Customer ${index + 1}`,
        role: "customer",
        // Each a company of one, as every customer is once the companies migration has run.
        ...(current ? { companyId: new Types.ObjectId(), companyRole: "owner" } : {}),
        address: `${index + 1} Workshop Lane, Springfield`,
        number: `555-${String(index).padStart(4, "0")}`,
        createdAt,
        updatedAt: createdAt,
      };
    },
    async (docs) => {
      if (current) {
        await Company.collection.insertMany(
          docs.map((doc) => ({
            _id: doc.companyId,
            ownerCount: 1,
            createdAt: doc.createdAt,
            updatedAt: doc.updatedAt,
          })),
          { ordered: false },
        );
      }
      await User.collection.insertMany(docs, { ordered: false });
      customers.push(...docs);
    },
  );
  mark("customers", since);

  since = performance.now();
  const statuses = ["unpaid", "paid", "shipped", "cancelled"] as const;
  // Numbered as the shop numbers orders: the counter moved on once for all of them.
  const counter = await Counter.findOneAndUpdate(
    { _id: "order" },
    { $inc: { seq: size.orders } },
    { upsert: true, returnDocument: "after", projection: { seq: 1 } },
  ).lean();
  const firstNumber = ORDER_NUMBER_BASE + counter!.seq - size.orders + 1;
  // The holds of the live orders, per part: written on the parts once the orders are in.
  const holds = new Map<string, { orderId: Types.ObjectId; quantity: number }[]>();
  await inBatches(
    size.orders,
    1000,
    (index) => {
      // Most orders have one line; every fourth restocks three parts at once.
      const ordered = new Map<string, (typeof parts)[number]>();
      for (let n = index % 4 === 0 ? 3 : 1; ordered.size < Math.min(n, parts.length);) {
        const part = pick(rand, parts);
        ordered.set(part._id.toString(), part);
      }
      const lines = [...ordered.values()].map((part) => {
        const quantity = 100 + Math.floor(rand() * 900);
        return {
          partId: part._id,
          partNumber: part.partNumber,
          productName: part.name,
          unitPriceCents: part.priceCents,
          quantity,
          lineTotalCents: part.priceCents * quantity,
        };
      });
      const customer = customers[index % Math.max(1, customers.length)];
      const status = pick(rand, statuses);
      const createdAt = new Date(now - 180 * DAY + index * 30_000);
      const _id = new Types.ObjectId();
      const paid = status === "paid" || status === "shipped";
      const totalCents = lines.reduce((sum, line) => sum + line.lineTotalCents, 0);
      if (current && LIVE_STATUSES.has(status)) {
        for (const line of lines) {
          const list = holds.get(line.partId.toString()) ?? [];
          list.push({ orderId: _id, quantity: line.quantity });
          holds.set(line.partId.toString(), list);
        }
      }
      return {
        _id,
        number: firstNumber + index,
        lines,
        totalCents,
        phone: "555-0100",
        address: `${index + 1} Depot Road, Springfield`,
        userId: customer._id,
        ...(current ? { companyId: customer.companyId, placedBy: customer._id } : {}),
        userEmail: customer.email,
        userName: customer.name,
        status,
        ...(current && status === "unpaid" ? { holdUntil: new Date(now + HOLD_MS) } : {}),
        paidCents: paid ? totalCents : 0,
        ...(paid ? { transactionId: `pi_bench_${index}`, paidAt: createdAt } : {}),
        ...(status === "shipped" ? { shippedAt: createdAt } : {}),
        ...(status === "cancelled" ? { cancelledAt: createdAt } : {}),
        createdAt,
        updatedAt: createdAt,
      };
    },
    (docs) => (customers.length ? Order.collection.insertMany(docs, { ordered: false }) : Promise.resolve()),
  );
  // Each held part: its holds, and on hand what is available plus what they keep.
  const available = new Map(parts.map((part) => [part._id.toString(), part.availableQuantity]));
  await inChunks([...holds], 1000, (chunk) =>
    Part.collection.bulkWrite(
      chunk.map(([partId, list]) => ({
        updateOne: {
          filter: { _id: new Types.ObjectId(partId) },
          update: {
            $set: {
              holds: list,
              onHand: (available.get(partId) ?? 0) + list.reduce((sum, hold) => sum + hold.quantity, 0),
            },
          },
        },
      })),
      { ordered: false },
    ),
  );
  mark("orders", since);

  since = performance.now();
  await inBatches(
    size.reviews,
    1000,
    (index) => {
      const customer = customers[index % Math.max(1, customers.length)];
      const createdAt = new Date(now - 180 * DAY + index * 90_000);
      // A customer's newest review is the visible one, the older ones replaced by it.
      const newest = !customer || index + customers.length >= size.reviews;
      return {
        ...(newest
          ? { hidden: false, ...(customer ? { visibleUserId: customer._id } : {}) }
          : { hidden: true, hiddenReason: "replaced" }),
        _id: new Types.ObjectId(),
        userId: customer?._id,
        userName: customer?.name ?? `Reviewer ${index + 1}`,
        email: customer?.email ?? `reviewer-${index + 1}@example.com`,
        rating: 1 + Math.floor(rand() * 5),
        description: Array.from({ length: 1 + Math.floor(rand() * 3) }, () => pick(rand, SENTENCES)).join(" "),
        verifiedBuyer: rand() < 0.5,
        createdAt,
        updatedAt: createdAt,
      };
    },
    (docs) => Review.collection.insertMany(docs, { ordered: false }),
  );
  mark("reviews", since);
  mark("total", started);

  return {
    ...size,
    seconds,
    partsPerSecond: Math.round(size.parts / Math.max(seconds.parts, 0.001)),
    samplePartIds: parts.slice(0, 200).map((part) => part._id.toString()),
    searchWord: "brake",
    searches: benchSearches(),
    vehicleFilters: benchVehicleFilters(),
  };
}
