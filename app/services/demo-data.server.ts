import type { Types } from "mongoose";
import { EMPTY_ADDRESS, formatAddress, type PostalAddress } from "~/domain/address";
import { addressKey } from "~/models/address-book.server";
import { countLiveKeys, createApiKey } from "~/models/api-key.server";
import { catalogueKeys } from "~/domain/part-search-keys";
import { Part, toPartView } from "~/models/part.server";
import { parseFitmentLine, type Category, type FitmentRow } from "~/domain/catalogue";
import { Review } from "~/models/review.server";
import { Company, type CompanyRole } from "~/models/company.server";
import { accountPricingOf, User, type Role } from "~/models/user.server";
import { PriceGroup } from "~/models/price-group.server";
import { parseBreaks, priceWith, type PricedLine } from "~/domain/pricing";
import { taxLinesFor, taxPlaceFor, taxTotal, type TaxProfile } from "~/domain/tax";
import { ensureDemoFailedMail } from "./failed-mail.server";
import { ensureDemoWebhooks } from "./webhooks.server";
import { assignInvoiceNumber } from "~/orders/model/invoice.server";
import { Order } from "~/orders/model/schema.server";
import { orderSearchKeys } from "~/orders/model/search-keys.server";
import { toOrderView } from "~/orders/model/view.server";
import { hashPassword } from "./password.server";
import { getEnv } from "./env.server";
import { priceLines } from "./pricing.server";
import { ensureDemoReturns, ensureDemoWarehouse } from "./demo-warehouse.server";

/**
 * The demo accounts; their logins are printed when the shop starts on the local database. Taylor
 * owns the demo trade company; Blake buys for it within a limit per order, Robin keeps its accounts.
 */
export const DEMO_USERS: {
  email: string;
  password: string;
  name: string;
  role: Role;
  companyRole?: CompanyRole;
  spendingLimitCents?: number;
  note?: string;
}[] = [
  { email: "admin@partsworks.test", password: "admin-demo-123", name: "Avery Admin", role: "admin" },
  { email: "customer@partsworks.test", password: "customer-demo-123", name: "Casey Customer", role: "customer" },
  {
    email: "trade@partsworks.test",
    password: "trade-demo-123",
    name: "Taylor Trade",
    role: "customer",
    companyRole: "owner",
  },
  {
    email: "buyer@partsworks.test",
    password: "buyer-demo-123",
    name: "Blake Buyer",
    role: "customer",
    companyRole: "buyer",
    spendingLimitCents: 150_000,
  },
  {
    email: "accounts@partsworks.test",
    password: "accounts-demo-123",
    name: "Robin Accounts",
    role: "customer",
    companyRole: "accounts",
  },
  {
    email: "distributor@partsworks.test",
    password: "distributor-demo-123",
    name: "Dana Distributor",
    role: "customer",
    note: "distributor in the Distributor price group (15% off, filters 20% off), Michigan sales tax",
  },
  {
    email: "eu@partsworks.test",
    password: "eu-demo-123",
    name: "Elke Becker",
    role: "customer",
    note: "EU company in Germany with a valid VAT number: reverse charge on its invoices",
  },
];

/** The demo price group and the accounts in it (docs/behaviour.md, "Prices"). */
const DEMO_PRICE_GROUP = {
  name: "Distributor",
  percentOff: 15,
  rules: [{ kind: "category" as const, value: "filters", percentOff: 20 }],
  stacksWithBreaks: false,
};

/** Demo accounts' companies and tax details, kept in their account sub-document. */
const DEMO_ACCOUNTS: Record<
  string,
  { companyName: string; billing: PostalAddress; country: string; taxId?: string; tax: TaxProfile; inGroup: boolean }
> = {
  "distributor@partsworks.test": {
    companyName: "Great Lakes Parts Distribution",
    billing: {
      ...EMPTY_ADDRESS,
      company: "Great Lakes Parts Distribution",
      line1: "900 Industrial Drive",
      city: "Lansing",
      region: "MI",
      postalCode: "48906",
      country: "US",
    },
    country: "US",
    tax: { country: "US", state: "MI", vatNumber: null, exemptionCertificate: null },
    inGroup: true,
  },
  "eu@partsworks.test": {
    companyName: "Autoteile Becker GmbH",
    billing: {
      ...EMPTY_ADDRESS,
      company: "Autoteile Becker GmbH",
      line1: "Hafenstraße 12",
      city: "Hamburg",
      postalCode: "20457",
      country: "DE",
    },
    country: "DE",
    taxId: "DE811907980",
    tax: { country: "DE", state: null, vatNumber: "DE811907980", exemptionCertificate: null },
    inGroup: false,
  },
};

/** Volume breaks of demo parts, in the compact syntax of Edit Product. */
const DEMO_BREAKS: Record<string, string> = {
  "PW-1003": "1000:-5%;5000:-10%",
  "PW-1005": "500:-5%;1000:-10%;5000:7.50",
};

/** The demo's delivery addresses, field by field (domain/address.ts): their country and region decide the tax. */
const NORTHSIDE_DOCK: PostalAddress = {
  name: "Receiving",
  company: "Northside Fleet Garage",
  line1: "48 Mill Road",
  line2: "",
  city: "Detroit",
  region: "MI",
  postalCode: "48209",
  country: "US",
};
const CASEY_HOME: PostalAddress = {
  ...EMPTY_ADDRESS,
  line1: "12 Elm Street",
  city: "Ann Arbor",
  region: "MI",
  postalCode: "48104",
  country: "US",
};
const BECKER_HAMBURG: PostalAddress = {
  ...EMPTY_ADDRESS,
  company: "Autoteile Becker GmbH",
  line1: "Hafenstraße 12",
  city: "Hamburg",
  postalCode: "20457",
  country: "DE",
};
/** Typed as free text before addresses had fields, and not read with certainty: the customer confirms it. */
const NORTHSIDE_YARD_TEXT = "Northside Yard 2\nbehind the Toledo depot, Ohio";

/** The demo trade customer's company and terms: on account, net 30, with a credit limit. */
const DEMO_TRADE = {
  email: "trade@partsworks.test",
  companyName: "Northside Fleet Garage",
  billing: {
    ...EMPTY_ADDRESS,
    company: "Northside Fleet Garage",
    line1: "48 Mill Road",
    city: "Detroit",
    region: "MI",
    postalCode: "48209",
    country: "US",
  } satisfies PostalAddress,
  account: { termsDays: 30, creditLimitCents: 5_000_000 },
};

const DEMO_PARTS = [
  [
    "PW-1001",
    "Ceramic Brake Pad Set",
    "Low-dust ceramic front pads with shims and wear sensors, for quiet stops from city traffic to towing.",
    24,
    4200,
  ],
  [
    "PW-1002",
    "Vented Brake Disc 300 mm",
    "High-carbon cast iron disc with curved cooling vanes and an anti-corrosion coating. Sold singly.",
    39,
    2600,
  ],
  [
    "PW-1003",
    "Oil Filter Cartridge",
    "Synthetic media cartridge that holds up to 15,000 km service intervals; O-rings included.",
    7,
    12000,
  ],
  [
    "PW-1004",
    "Cabin Air Filter with Carbon",
    "Activated-carbon cabin filter that traps pollen, dust and road odours before they reach the cabin.",
    11,
    8000,
  ],
  [
    "PW-1005",
    "Iridium Spark Plug",
    "Fine-wire iridium tip for a steady spark and 100,000 km life. Pre-gapped.",
    9,
    15000,
  ],
  [
    "PW-1006",
    "Front Shock Absorber",
    "Twin-tube gas shock with rebound control tuned for comfort under load.",
    58,
    1800,
  ],
  [
    "PW-1007",
    "Timing Belt Kit",
    "Belt, tensioner and idler pulleys from one production batch, so they wear in together.",
    85,
    1200,
  ],
  [
    "PW-1008",
    "Water Pump Assembly",
    "Cast aluminium housing, composite impeller and a sealed bearing; gasket included.",
    64,
    1500,
  ],
  [
    "PW-1009",
    "Alternator 150 A",
    "Remanufactured to OE specification with a new regulator and bearings. Tested at full load.",
    189,
    600,
  ],
  [
    "PW-1010",
    "Radiator Core, Aluminium",
    "Brazed aluminium core with plastic tanks and pressure-tested seams.",
    142,
    700,
  ],
  [
    "PW-1011",
    "Wiper Blade 600 mm",
    "Beam-type blade with a graphite-coated rubber edge for a streak-free sweep in all weather.",
    12,
    9000,
  ],
  [
    "PW-1012",
    "LED Headlight Bulb H7",
    "Plug-and-play H7 LED with a fanless heat sink, 6000 K white light and a sharp cut-off.",
    19,
    5000,
  ],
] as const;

/** Category, brand, OE cross-references and fitment of each demo part, by part number. */
const DEMO_CATALOGUE: Record<string, { category: Category; brand: string; oe: string[]; fits: string[] }> = {
  "PW-1001": {
    category: "brakes",
    brand: "Nordwerk",
    oe: ["1K0 698 151 A", "5Q0-698-151-B"],
    fits: [
      "Volkswagen Golf 2013-2020 1.4 TSI",
      "Volkswagen Golf 2013-2020 2.0 TDI",
      "Audi A3 2013-2020",
      "Škoda Octavia 2013-2019",
      "Volkswagen Passat 2015-2022",
    ],
  },
  "PW-1002": {
    category: "brakes",
    brand: "Nordwerk",
    oe: ["5Q0 615 301 F"],
    fits: ["Volkswagen Golf 2013-2020", "Volkswagen Tiguan 2016-2023", "Audi A3 2013-2020", "Škoda Octavia 2013-2019"],
  },
  "PW-1003": {
    category: "filters",
    brand: "PartsWorks",
    oe: ["04152-YZZA1", "04152-37010"],
    fits: ["Toyota Corolla 2007-2022", "Toyota RAV4 2006-2018", "Toyota Camry 2012-2022", "Toyota Hilux 2016-2025"],
  },
  "PW-1004": {
    category: "filters",
    brand: "PartsWorks",
    oe: ["6447.XF", "1609427080"],
    fits: ["Peugeot 208 2012-2019", "Peugeot 308 2013-2021", "Citroën C3 2010-2016", "Citroën C4 2010-2018"],
  },
  "PW-1005": {
    category: "ignition",
    brand: "Sakura Auto",
    oe: ["22401-ED815"],
    fits: ["Nissan Qashqai 2007-2013", "Nissan Micra 2010-2017", "Renault Clio 2012-2019", "Dacia Duster 2010-2017"],
  },
  "PW-1006": {
    category: "suspension",
    brand: "Ironhorse",
    oe: ["31316786000"],
    fits: ["BMW 3 Series 2012-2019 320d", "BMW 1 Series 2011-2019"],
  },
  "PW-1007": {
    category: "engine",
    brand: "Apex Motors",
    oe: ["1S7G-6K288-AE"],
    fits: ["Ford Focus 2004-2011 1.6 TDCi", "Ford Fiesta 2008-2017", "Mazda Mazda3 2004-2009"],
  },
  "PW-1008": {
    category: "cooling",
    brand: "Apex Motors",
    oe: ["21010-1KA0A"],
    fits: ["Nissan Qashqai 2014-2021", "Renault Mégane 2016-2023", "Dacia Duster 2018-2025"],
  },
  "PW-1009": {
    category: "electrical",
    brand: "Ironhorse",
    oe: ["06F 903 023 F", "028 903 031"],
    fits: ["Volkswagen Golf 2004-2012", "Volkswagen Passat 2005-2014", "Audi A4 2008-2015", "Škoda Octavia 2004-2012"],
  },
  "PW-1010": {
    category: "cooling",
    brand: "Apex Motors",
    oe: ["16400-0T040"],
    fits: ["Toyota Corolla 2013-2019", "Toyota Camry 2012-2017", "Honda Civic 2012-2017"],
  },
  "PW-1011": {
    category: "wipers",
    brand: "Rallye",
    oe: ["5G1 955 425 A"],
    fits: ["Volkswagen Golf 2013-2020", "Ford Focus 2011-2018", "Hyundai i30 2012-2020", "Kia Ceed 2012-2018"],
  },
  "PW-1012": {
    category: "lighting",
    brand: "Rallye",
    oe: ["N 104 605 02"],
    fits: [
      "Volkswagen Golf 2009-2020",
      "Opel Astra 2010-2021",
      "Renault Clio 2012-2019",
      "Hyundai Tucson 2015-2020",
      "Kia Sportage 2010-2021",
      "Mercedes-Benz C-Class 2007-2014",
    ],
  },
};

/** The demo catalogue data of one part, parsed through the admin's own fitment rules. */
function demoCatalogue(partNumber: string) {
  const demo = DEMO_CATALOGUE[partNumber];
  const fitment: FitmentRow[] = demo.fits.map((line) => {
    const parsed = parseFitmentLine(line);
    if (!parsed.ok) throw new Error(`Demo fitment of ${partNumber}: ${parsed.message}`);
    return parsed.row;
  });
  return { category: demo.category, brand: demo.brand, oeNumbers: demo.oe, fitment };
}

const DEMO_REVIEWS = [
  [
    "Jordan Mechanic",
    5,
    "We switched our whole fleet to the ceramic pads. Dust is down, the pedal feels consistent and the bulk price beats our old distributor by a mile.",
  ],
  [
    "Priya Garage Co.",
    4,
    "Timing belt kits arrived complete and well packed. One tensioner box was dented but the part was fine. Pick-up in store was quicker than promised.",
  ],
  [
    "Miguel R.",
    5,
    "Ordering 500 spark plugs took two minutes, the card payment went straight through and the order was ready for collection the same afternoon.",
  ],
  [
    "Hannah's Auto Repair",
    3,
    "Good radiators at a fair price. I would like more stock of the larger cores, we had to wait a week for a restock.",
  ],
  [
    "Tom Becker",
    4,
    "The LED bulbs are bright with a clean cut-off and no flicker on the cars we tested. Documentation could be better but support answered fast.",
  ],
  [
    "Lena Workshop",
    5,
    "Oil filter cartridges fit perfectly, and the minimum order of 100 suits a busy workshop like ours. We will keep ordering every month.",
  ],
] as const;

/** The demo trade company (found by its name, else created), with its billing address and terms. */
async function demoTradeCompany() {
  const existing = await Company.findOne({ nameKey: DEMO_TRADE.companyName.toLowerCase() }, { _id: 1 }).lean();
  if (existing) return existing._id;
  const dock = formatAddress(NORTHSIDE_DOCK);
  const company = await Company.create({
    companyName: DEMO_TRADE.companyName,
    billing: DEMO_TRADE.billing,
    billingAddress: formatAddress(DEMO_TRADE.billing),
    account: DEMO_TRADE.account,
    ownerCount: 1,
    // One address with fields, and one kept from before as text, flagged for the customer to confirm.
    addresses: [
      { label: "Main dock", address: dock, key: addressKey(dock), postal: NORTHSIDE_DOCK },
      {
        label: "Toledo yard",
        address: NORTHSIDE_YARD_TEXT,
        key: addressKey(NORTHSIDE_YARD_TEXT),
        postal: undefined,
        needsConfirmation: true,
      },
    ],
  });
  return company._id;
}

/**
 * Adds whatever is missing of the demo data: idempotent, never touches what is there.
 * Returns the demo logins.
 */
export async function ensureDemoData() {
  const group =
    (await PriceGroup.findOne({ nameKey: DEMO_PRICE_GROUP.name.toLowerCase() }).lean()) ??
    (await PriceGroup.create({ ...DEMO_PRICE_GROUP, nameKey: DEMO_PRICE_GROUP.name.toLowerCase() })).toObject();
  for (const demo of DEMO_USERS) {
    const exists = await User.exists({ email: demo.email });
    const trade = DEMO_ACCOUNTS[demo.email];
    if (!exists && trade) {
      // A company of its own, holding its price group and tax details.
      const company = await Company.create({
        companyName: trade.companyName,
        billing: trade.billing,
        billingAddress: formatAddress(trade.billing),
        country: trade.country,
        ...(trade.taxId ? { taxId: trade.taxId } : {}),
        account: {
          termsDays: 0,
          creditLimitCents: 0,
          ...(trade.inGroup ? { priceGroupId: group._id } : {}),
          tax: trade.tax,
        },
        ownerCount: 1,
      });
      await User.create({
        email: demo.email,
        name: demo.name,
        role: demo.role,
        passwordHash: await hashPassword(demo.password),
        emailVerifiedAt: new Date(),
        companyId: company._id,
        companyRole: "owner",
      });
      continue;
    }
    if (!exists) {
      await User.create({
        email: demo.email,
        name: demo.name,
        role: demo.role,
        passwordHash: await hashPassword(demo.password),
        // The demo accounts' addresses are examples: counted as verified, so no banner asks for a link.
        emailVerifiedAt: new Date(),
        ...(demo.companyRole
          ? {
              companyId: await demoTradeCompany(),
              companyRole: demo.companyRole,
              ...(demo.spendingLimitCents ? { spendingLimitCents: demo.spendingLimitCents } : {}),
            }
          : {}),
      });
    }
  }

  const now = Date.now();
  for (const [index, [partNumber, name, description, dollars, stock]] of DEMO_PARTS.entries()) {
    const catalogue = demoCatalogue(partNumber);
    const existing = await Part.findOne({ partNumber }).select({ partNumberKey: 1 }).lean();
    const breaks = DEMO_BREAKS[partNumber] ? parseBreaks(DEMO_BREAKS[partNumber], dollars * 100) : null;
    if (breaks && !breaks.ok) throw new Error(`Demo breaks of ${partNumber}: ${breaks.message}`);
    const volumeBreaks = breaks?.ok ? breaks.breaks : undefined;
    if (existing) {
      // Demo parts stored before volume breaks existed get theirs.
      if (volumeBreaks) {
        await Part.updateOne({ _id: existing._id, volumeBreaks: { $exists: false } }, { $set: { volumeBreaks } });
      }
      // Demo parts stored before the catalogue fields existed get theirs.
      if (!existing.partNumberKey) {
        await Part.updateOne(
          { _id: existing._id },
          { $set: { ...catalogue, ...catalogueKeys({ ...catalogue, partNumber, name }) } },
        );
      }
      continue;
    }
    // Older parts first, so the catalogue has a stable "newest" order.
    const createdAt = new Date(now - (DEMO_PARTS.length - index) * 60_000);
    await Part.create({
      partNumber,
      name,
      description,
      img: `/images/parts/${partNumber.toLowerCase()}.svg`,
      priceCents: dollars * 100,
      minOrderQuantity: 100,
      availableQuantity: stock,
      ...catalogue,
      ...(volumeBreaks ? { volumeBreaks } : {}),
      createdAt,
      updatedAt: createdAt,
    });
  }

  if ((await Review.estimatedDocumentCount()) === 0) {
    for (const [index, [userName, rating, description]] of DEMO_REVIEWS.entries()) {
      const createdAt = new Date(now - (DEMO_REVIEWS.length - index) * 60_000);
      const slug = userName
        .toLowerCase()
        .replace(/[^a-z]+/g, ".")
        .replace(/^\.|\.$/g, "");
      await Review.create({
        userName,
        email: `${slug}@example.com`,
        rating,
        description,
        verifiedBuyer: index % 2 === 0,
        createdAt,
        updatedAt: createdAt,
      });
    }
  }

  if ((await Order.estimatedDocumentCount()) === 0) await createDemoOrders(now);
  await ensureEuDemoOrder(now);

  // API keys shows a key on first start: the trade customer's purchasing system (its token is
  // never shown; a new key is made on the screen).
  // Keys belong to the company: its owner's purchasing system, and the counter tablet its buyer made
  // (the owner's list names who made each).
  const trade = await User.findOne({ email: DEMO_TRADE.email }).select({ _id: 1, companyId: 1 }).lean();
  if (trade?.companyId && (await countLiveKeys({ companyId: trade.companyId.toString() })) === 0) {
    const companyId = trade.companyId.toString();
    await createApiKey({
      ownerId: trade._id.toString(),
      companyId,
      name: "Purchasing system",
      scopes: ["read", "order"],
    });
    const counter = await User.findOne({ email: "buyer@partsworks.test", companyId }).select({ _id: 1 }).lean();
    if (counter) {
      await createApiKey({ ownerId: counter._id.toString(), companyId, name: "Counter tablet", scopes: ["read"] });
    }
  }

  await ensureDemoFailedMail(DEMO_USERS[1].email);
  if (trade?.companyId) {
    const orders = await Order.find({ userId: trade._id }).sort({ createdAt: 1 }).limit(2).lean();
    await ensureDemoWebhooks(trade._id.toString(), trade.companyId.toString(), orders.map(toOrderView));
  }
  await ensureDemoApproval(now);
  await ensureDemoBankTransferOrder(now);
  await ensureDemoWarehouse(now, DEMO_USERS[1].email, DEMO_USERS[0].email);
  await ensureDemoReturns(now, DEMO_USERS[1].email, DEMO_USERS[0].email);
  // A company member is printed with their role in the company (the demo.sh and seed listings).
  return DEMO_USERS.map(({ email, password, role, companyRole, note }) => ({
    email,
    password,
    role: companyRole && companyRole !== "owner" ? companyRole : role,
    note: note ?? null,
  }));
}

/**
 * The EU company's paid order, so its invoice shows the reverse charge on first start: priced and
 * taxed by the same function as a real order (a seed: stock is not taken).
 */
async function ensureEuDemoOrder(now: number) {
  const buyer = await User.findOne({ email: "eu@partsworks.test" }).lean();
  if (!buyer || (await Order.exists({ userId: buyer._id }))) return;
  const part = await Part.findOne({ partNumber: "PW-1005" }).lean();
  if (!part) return;
  const view = toPartView(part);
  const company = buyer.companyId ? await Company.findById(buyer.companyId).lean() : null;
  const pricing = { group: null, tax: accountPricingOf(company?.account).tax };
  const priced = priceWith(pricing, new Map([[view.id, view]]), [{ partId: view.id, quantity: 1000 }], BECKER_HAMBURG);
  const line = priced.lines[0];
  const placedAt = new Date(now - 5 * DAY_MS);
  const order = await Order.create({
    lines: [orderLine(part, line.quantity, line)],
    netCents: priced.netCents,
    taxCents: priced.taxCents,
    taxLines: priced.taxLines,
    totalCents: priced.totalCents,
    buyerVatNumber: pricing.tax?.vatNumber ?? undefined,
    phone: "+49 40 5550 1200",
    address: formatAddress(BECKER_HAMBURG),
    deliveryAddress: BECKER_HAMBURG,
    poNumber: "BE-2026-117",
    userId: buyer._id,
    userEmail: buyer.email,
    userName: buyer.name,
    companyId: buyer.companyId,
    placedBy: buyer._id,
    companyName: company?.companyName,
    searchKeys: orderSearchKeys({ poNumber: "BE-2026-117", companyName: company?.companyName, placerName: buyer.name }),
    paymentMethod: "card",
    status: "paid",
    paidCents: priced.totalCents,
    paidAt: new Date(placedAt.getTime() + HOUR_MS),
    transactionId: "pi_demo_eu_reverse_charge",
    createdAt: placedAt,
  });
  // Paid, not yet shipped: it holds its stock like the other demo orders (on hand grows by it).
  await Part.updateOne(
    { _id: part._id, "holds.orderId": { $ne: order._id } },
    { $push: { holds: { orderId: order._id, quantity: line.quantity } }, $inc: { onHand: line.quantity } },
  );
  await assignInvoiceNumber(order._id.toString());
}

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

/**
 * A demo order's line as a placed order keeps it: the part's number and name when ordered, at the
 * price `priced` gives it (priced as a placed order is), else at the list price.
 */
function orderLine(
  part: { _id: Types.ObjectId; partNumber: string; name: string; priceCents: number },
  quantity: number,
  priced?: PricedLine,
) {
  const ordered = { partId: part._id, partNumber: part.partNumber, productName: part.name };
  if (!priced) {
    return { ...ordered, unitPriceCents: part.priceCents, quantity, lineTotalCents: part.priceCents * quantity };
  }
  return {
    ...ordered,
    unitPriceCents: priced.unitPriceCents,
    quantity,
    lineTotalCents: priced.lineTotalCents,
    listUnitPriceCents: priced.listPriceCents,
    priceSource: priced.source,
  };
}

/**
 * The distributor (no payment terms) chose bank transfer against the pro-forma: unpaid, its stock
 * held for the usual time, awaiting the money. Added once, priced as a placed order is (a seed:
 * stock is not taken, on hand grows by the hold).
 */
async function ensureDemoBankTransferOrder(now: number) {
  const dana = await User.findOne({ email: "distributor@partsworks.test" }).lean();
  if (!dana || (await Order.exists({ userId: dana._id, paymentMethod: "bank-transfer" }))) return;
  const wanted = await Part.find({ partNumber: { $in: ["PW-1001", "PW-1006"] } }).lean();
  if (wanted.length < 2) return;
  const delivery: PostalAddress = {
    ...EMPTY_ADDRESS,
    company: "Great Lakes Parts Distribution",
    line1: "900 Harbor Drive",
    city: "Toledo",
    region: "OH",
    postalCode: "43604",
    country: "US",
  };
  const priced = await priceLines(
    { id: dana._id.toString() },
    wanted.map((part) => ({ partId: part._id.toString(), quantity: 200 })),
    delivery,
  );
  const byId = new Map(wanted.map((part) => [part._id.toString(), part]));
  const createdAt = new Date(now - 5 * HOUR_MS);
  const company = dana.companyId ? await Company.findById(dana.companyId, { companyName: 1 }).lean() : null;
  const order = await Order.create({
    lines: priced.lines.map((line) => orderLine(byId.get(line.partId)!, line.quantity, line)),
    netCents: priced.netCents,
    taxCents: priced.taxCents,
    taxLines: priced.taxLines,
    totalCents: priced.totalCents,
    phone: "+1 419 555 0160",
    address: formatAddress(delivery),
    deliveryAddress: delivery,
    poNumber: "GLP-7781",
    userId: dana._id,
    companyId: dana.companyId,
    placedBy: dana._id,
    userEmail: dana.email,
    userName: dana.name,
    ...(company?.companyName ? { companyName: company.companyName } : {}),
    searchKeys: orderSearchKeys({ poNumber: "GLP-7781", companyName: company?.companyName, placerName: dana.name }),
    paymentMethod: "bank-transfer",
    status: "unpaid",
    holdUntil: new Date(createdAt.getTime() + getEnv().ORDER_HOLD_HOURS * HOUR_MS),
    createdAt,
    updatedAt: createdAt,
  });
  await Part.bulkWrite(
    priced.lines.map((line) => ({
      updateOne: {
        filter: { _id: line.partId, "holds.orderId": { $ne: order._id } },
        update: { $push: { holds: { orderId: order._id, quantity: line.quantity } }, $inc: { onHand: line.quantity } },
      },
    })),
  );
}

/**
 * Blake's order over his limit, waiting for Taylor's approval (its stock held for the hold window, as a placed one's):
 * added once, also to a demo database made before companies.
 */
async function ensureDemoApproval(now: number) {
  const blake = await User.findOne({ email: "buyer@partsworks.test" }).lean();
  if (!blake?.companyId || (await Order.exists({ userId: blake._id, approvalRequired: true }))) return;
  const part = await Part.findOne({ partNumber: "PW-1002" }).lean();
  if (!part) return;
  const quantity = 100;
  const createdAt = new Date(now - 2 * HOUR_MS);
  const netCents = part.priceCents * quantity;
  const taxLines = taxLinesFor(null, netCents, taxPlaceFor(null, NORTHSIDE_DOCK));
  const approvalMoney = { netCents, taxCents: taxTotal(taxLines), taxLines, totalCents: netCents + taxTotal(taxLines) };
  const order = await Order.create({
    lines: [orderLine(part, quantity)],
    ...approvalMoney,
    userId: blake._id,
    companyId: blake.companyId,
    placedBy: blake._id,
    userEmail: blake.email,
    userName: blake.name,
    companyName: DEMO_TRADE.companyName,
    searchKeys: orderSearchKeys({ poNumber: "NFG-4450", companyName: DEMO_TRADE.companyName, placerName: blake.name }),
    poNumber: "NFG-4450",
    phone: "+1 313 555 0199",
    address: formatAddress(NORTHSIDE_DOCK),
    deliveryAddress: NORTHSIDE_DOCK,
    paymentMethod: "card",
    status: "approval",
    approvalRequired: true,
    approval: { limitCents: blake.spendingLimitCents ?? 0 },
    // Held for the same window as an unpaid card order, from when it was placed.
    holdUntil: new Date(createdAt.getTime() + getEnv().ORDER_HOLD_HOURS * HOUR_MS),
    createdAt,
    updatedAt: createdAt,
  });
  // Held like a live order's (a seed, not a sale: on hand grows by it, so the stock check adds up).
  await Part.updateOne(
    { _id: part._id, "holds.orderId": { $ne: order._id } },
    { $push: { holds: { orderId: order._id, quantity } }, $inc: { onHand: quantity } },
  );
}

/**
 * Orders in every state, so Shop Today, the sales chart, a statement, invoices and packing slips
 * show something on first start: awaiting card payment, cancelled, paid to ship, shipped with
 * tracking (Casey, by card or transfer), and on account: open, part-paid, overdue, paid (Taylor).
 * Written straight to the database (a seed, not a sale: stock is not taken), oldest first, so
 * their numbers follow the days they were placed.
 */
async function createDemoOrders(now: number) {
  const [admin, casey, taylor] = await Promise.all(
    DEMO_USERS.map((demo) => User.findOne({ email: demo.email }).lean()),
  );
  const parts = new Map(
    (await Part.find({ partNumber: { $in: DEMO_PARTS.map(([number]) => number) } }).lean()).map((part) => [
      part.partNumber,
      part,
    ]),
  );
  if (!admin || !casey || !taylor || parts.size < 4) return;
  const staff = admin.email;
  const holdHours = getEnv().ORDER_HOLD_HOURS;
  const at = (daysAgo: number) => new Date(now - daysAgo * DAY_MS);
  const lines = (wanted: [string, number][]) =>
    wanted.flatMap(([partNumber, quantity]) => {
      const part = parts.get(partNumber);
      return part ? [orderLine(part, quantity)] : [];
    });
  const companyNames = new Map(
    (await Company.find({ _id: { $in: [casey.companyId!, taylor.companyId!] } }, { companyName: 1 }).lean()).map(
      (company) => [String(company._id), company.companyName ?? ""],
    ),
  );
  const buyer = (user: typeof casey, delivery: PostalAddress) => {
    const companyName = companyNames.get(String(user.companyId)) ?? "";
    return {
      userId: user._id,
      companyId: user.companyId,
      placedBy: user._id,
      userEmail: user.email,
      userName: user.name,
      phone: "+1 313 555 0199",
      address: formatAddress(delivery),
      deliveryAddress: delivery,
      ...(companyName ? { companyName } : {}),
      searchKeys: orderSearchKeys({ companyName, placerName: user.name }),
    };
  };
  const transfer = (amountCents: number, daysAgo: number, reference: string) => ({
    amountCents,
    method: "bank-transfer" as const,
    receivedOn: new Date(new Date(at(daysAgo)).setUTCHours(0, 0, 0, 0)),
    reference,
    recordedBy: staff,
    recordedAt: at(daysAgo),
  });
  const caseyAt = buyer(casey, CASEY_HOME);
  const taylorAt = buyer(taylor, NORTHSIDE_DOCK);
  const onAccount = (placedDaysAgo: number) => ({
    paymentMethod: "account" as const,
    termsDays: 30,
    dueAt: new Date(at(placedDaysAgo).getTime() + 30 * DAY_MS),
  });
  const shipped = (daysAgo: number, shipment: { carrier: string; trackingNumber?: string }) => ({
    status: "shipped",
    shippedAt: at(daysAgo),
    shipment,
  });
  type Seed = { placed: number; fields: Record<string, unknown>; wanted: [string, number][] };
  const seeds: Seed[] = [
    // Taylor: on account, paid by transfer and shipped (sales), then overdue and shipped, part-paid, open.
    {
      placed: 28,
      wanted: [
        ["PW-1001", 200],
        ["PW-1003", 300],
      ],
      fields: {
        ...taylorAt,
        ...onAccount(28),
        ...shipped(27, { carrier: "ups", trackingNumber: "1Z999AA10123456784" }),
        poNumber: "NFG-4410",
      },
    },
    {
      placed: 40,
      wanted: [["PW-1002", 120]],
      fields: {
        ...taylorAt,
        ...onAccount(40),
        ...shipped(39, { carrier: "fedex", trackingNumber: "7712 3456 7890" }),
        poNumber: "NFG-4398",
      },
    },
    {
      placed: 12,
      wanted: [["PW-1004", 150]],
      fields: { ...taylorAt, ...onAccount(12), ...shipped(11, { carrier: "collected" }), poNumber: "NFG-4432" },
    },
    {
      placed: 3,
      wanted: [["PW-1005", 100]],
      fields: { ...taylorAt, ...onAccount(3), status: "account", poNumber: "NFG-4451" },
    },
    // Casey: shipped with tracking, paid to ship, cancelled, awaiting card payment.
    {
      placed: 20,
      wanted: [["PW-1003", 100]],
      fields: { ...caseyAt, ...shipped(18, { carrier: "usps", trackingNumber: "9400 1000 0000 0000 0000 00" }) },
    },
    { placed: 6, wanted: [["PW-1006", 100]], fields: { ...caseyAt, status: "paid" } },
    { placed: 4, wanted: [["PW-1001", 100]], fields: { ...caseyAt, status: "cancelled", cancelledAt: at(4) } },
    {
      placed: 1,
      wanted: [
        ["PW-1002", 100],
        ["PW-1004", 100],
      ],
      fields: { ...caseyAt, status: "unpaid" },
    },
  ];
  seeds.sort((a, b) => b.placed - a.placed);
  for (const seed of seeds) {
    const orderLines = lines(seed.wanted);
    if (!orderLines.length) continue;
    // Taxed as a placed order is: by its delivery address (these are Michigan addresses: 6 %).
    const netCents = orderLines.reduce((sum, line) => sum + line.lineTotalCents, 0);
    const taxLines = taxLinesFor(null, netCents, taxPlaceFor(null, seed.fields.deliveryAddress as PostalAddress));
    const totalCents = netCents + taxTotal(taxLines);
    const createdAt = at(seed.placed);
    const money =
      seed.fields.poNumber === "NFG-4410"
        ? { payments: [transfer(totalCents, 14, "NFG-4410 / SO")], paidCents: totalCents, paidAt: at(14) }
        : seed.fields.poNumber === "NFG-4432"
          ? {
              payments: [transfer(Math.round(totalCents / 2), 5, "NFG-4432 part")],
              paidCents: Math.round(totalCents / 2),
            }
          : seed.fields.paymentMethod !== "account" &&
              (seed.fields.status === "shipped" || seed.fields.status === "paid")
            ? {
                paymentMethod: "bank-transfer" as const,
                payments: [transfer(totalCents, seed.placed - 1, `Casey ${seed.placed}`)],
                paidCents: totalCents,
                paidAt: at(seed.placed - 1),
              }
            : {};
    const order = await Order.create({
      lines: orderLines,
      netCents,
      taxCents: totalCents - netCents,
      taxLines,
      totalCents,
      ...seed.fields,
      ...(seed.fields.poNumber
        ? {
            searchKeys: orderSearchKeys({
              poNumber: String(seed.fields.poNumber),
              companyName: "Northside Fleet Garage",
              placerName: String(seed.fields.userName ?? ""),
            }),
          }
        : {}),
      ...money,
      // An unpaid card order holds its stock for the hold time from when it was placed.
      ...(seed.fields.status === "unpaid" ? { holdUntil: new Date(createdAt.getTime() + holdHours * HOUR_MS) } : {}),
      createdAt,
      updatedAt: createdAt,
    });
    // A live order holds its stock: the hold is noted on each part, and (a seed, not a sale: the
    // stock shown stays as listed) the part's on-hand count includes it, so the stock check adds up.
    if (["unpaid", "paid", "account"].includes(String(seed.fields.status))) {
      await Part.bulkWrite(
        orderLines.map((line) => ({
          updateOne: {
            filter: { _id: line.partId, "holds.orderId": { $ne: order._id } },
            update: {
              $push: { holds: { orderId: order._id, quantity: line.quantity } },
              $inc: { onHand: line.quantity },
            },
          },
        })),
      );
    }
    if (seed.fields.status !== "unpaid" && seed.fields.status !== "cancelled") {
      await assignInvoiceNumber(order._id.toString());
    }
  }
}
