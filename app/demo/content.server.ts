/**
 * The demo's content: its accounts, companies and their terms, addresses, parts with their catalogue
 * data and volume breaks, and reviews. What is written from it is data.server.ts.
 */
import type { PeppolId } from "~/domain/peppol";
import { EMPTY_ADDRESS, type PostalAddress } from "~/domain/address";
import { parseFitmentLine, type Category, type FitmentRow } from "~/domain/catalogue";
import { type CompanyRole } from "~/models/company.server";
import { type Role } from "~/models/user.server";
import { type TaxProfile } from "~/domain/tax";

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
    note: "EU company in Germany with a valid VAT number, buying in euros: intra-community supplies, invoiced when they ship",
  },
  {
    email: "uk@partsworks.test",
    password: "uk-demo-123",
    name: "Priya Shah",
    role: "customer",
    note: "UK distributor buying in pounds sterling: exports, paid by bank transfer to the sterling account",
  },
];

/** The UK distributor's office and goods-in: a sale out of the US and the EU is an export. */
export const UK_DISTRIBUTOR_ADDRESS: PostalAddress = {
  ...EMPTY_ADDRESS,
  company: "Midlands Motor Factors Ltd",
  line1: "Unit 4, Tyseley Industrial Estate",
  city: "Birmingham",
  postalCode: "B11 2AA",
  country: "GB",
};

/** The demo price group and the accounts in it (docs/behaviour.md, "Prices"). */
export const DEMO_PRICE_GROUP = {
  name: "Distributor",
  percentOff: 15,
  rules: [{ kind: "category" as const, value: "filters", percentOff: 20 }],
  stacksWithBreaks: false,
};

/** Demo accounts' companies and tax details, kept in their account sub-document. */
export const DEMO_ACCOUNTS: Record<
  string,
  {
    companyName: string;
    billing: PostalAddress;
    country: string;
    taxId?: string;
    tax: TaxProfile;
    inGroup: boolean;
    /** The currency it buys in (unset: US dollars). */
    currency?: "EUR" | "GBP";
    /** Its Peppol participant id: its e-invoices go over Peppol (the other demo companies have none). */
    peppol?: PeppolId;
  }
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
    currency: "EUR",
    peppol: { scheme: "9930", id: "DE811907980" },
  },
  "uk@partsworks.test": {
    companyName: "Midlands Motor Factors Ltd",
    billing: UK_DISTRIBUTOR_ADDRESS,
    country: "GB",
    taxId: "GB123456782",
    tax: { country: "GB", state: null, vatNumber: "GB123456782", exemptionCertificate: null },
    inGroup: false,
    currency: "GBP",
  },
};

/**
 * The demo parts' price lists in euros and pounds (major units, breaks in Edit Product's syntax):
 * set by the shop, never converted. The alternator has no price in pounds yet, so the UK
 * distributor sees what a part not sold in its currency looks like.
 */
export const DEMO_PRICE_LISTS: Record<string, Partial<Record<"EUR" | "GBP", { price: number; breaks?: string }>>> = {
  "PW-1001": { EUR: { price: 22.5 }, GBP: { price: 19.4 } },
  "PW-1002": { EUR: { price: 36.9 }, GBP: { price: 31.5 } },
  "PW-1003": { EUR: { price: 6.6, breaks: "1000:-5%;5000:-10%" }, GBP: { price: 5.65, breaks: "1000:-5%;5000:-10%" } },
  "PW-1004": { EUR: { price: 10.4 }, GBP: { price: 8.9 } },
  "PW-1005": {
    EUR: { price: 8.5, breaks: "500:-5%;1000:-10%;5000:7.10" },
    GBP: { price: 7.25, breaks: "500:-5%;1000:-10%" },
  },
  "PW-1006": { EUR: { price: 54.9 }, GBP: { price: 46.9 } },
  "PW-1007": { EUR: { price: 79.9 }, GBP: { price: 68.5 } },
  "PW-1008": { EUR: { price: 59.9 }, GBP: { price: 51.5 } },
  "PW-1009": { EUR: { price: 176 } },
  "PW-1010": { EUR: { price: 132.5 }, GBP: { price: 113.9 } },
  "PW-1011": { EUR: { price: 11.3 }, GBP: { price: 9.65 } },
  "PW-1012": { EUR: { price: 17.9 }, GBP: { price: 15.3 } },
};

/**
 * The lowest unit prices staff quote a few demo parts at without the audited override, by currency
 * (minor units): below the deepest volume break (a part without a floor is quoted down to that break
 * only), so a quote for a large quantity has room.
 */
export const DEMO_QUOTE_FLOORS: Record<string, Partial<Record<"USD" | "EUR" | "GBP", number>>> = {
  "PW-1001": { USD: 1950, EUR: 1850, GBP: 1600 },
  "PW-1003": { USD: 560, EUR: 530, GBP: 450 },
  "PW-1004": { USD: 950, EUR: 900, GBP: 770 },
  "PW-1005": { USD: 720, EUR: 680, GBP: 580 },
  "PW-1011": { USD: 1000, EUR: 940, GBP: 800 },
  "PW-1012": { USD: 1600, EUR: 1500, GBP: 1280 },
};

/** Volume breaks of demo parts, in the compact syntax of Edit Product. */
export const DEMO_BREAKS: Record<string, string> = {
  "PW-1003": "1000:-5%;5000:-10%",
  "PW-1005": "500:-5%;1000:-10%;5000:7.50",
};

/** The demo's delivery addresses, field by field (domain/address.ts): their country and region decide the tax. */
export const NORTHSIDE_DOCK: PostalAddress = {
  name: "Receiving",
  company: "Northside Fleet Garage",
  line1: "48 Mill Road",
  line2: "",
  city: "Detroit",
  region: "MI",
  postalCode: "48209",
  country: "US",
};
export const CASEY_HOME: PostalAddress = {
  ...EMPTY_ADDRESS,
  line1: "12 Elm Street",
  city: "Ann Arbor",
  region: "MI",
  postalCode: "48104",
  country: "US",
};
export const BECKER_HAMBURG: PostalAddress = {
  ...EMPTY_ADDRESS,
  company: "Autoteile Becker GmbH",
  line1: "Hafenstraße 12",
  city: "Hamburg",
  postalCode: "20457",
  country: "DE",
};
/** Typed as free text before addresses had fields, and not read with certainty: the customer confirms it. */
export const NORTHSIDE_YARD_TEXT = "Northside Yard 2\nbehind the Toledo depot, Ohio";

/** The demo trade customer's company and terms: on account, net 30, with a credit limit. */
export const DEMO_TRADE = {
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

export const DEMO_PARTS = [
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
export const DEMO_CATALOGUE: Record<string, { category: Category; brand: string; oe: string[]; fits: string[] }> = {
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
export function demoCatalogue(partNumber: string) {
  const demo = DEMO_CATALOGUE[partNumber];
  const fitment: FitmentRow[] = demo.fits.map((line) => {
    const parsed = parseFitmentLine(line);
    if (!parsed.ok) throw new Error(`Demo fitment of ${partNumber}: ${parsed.message}`);
    return parsed.row;
  });
  return { category: demo.category, brand: demo.brand, oeNumbers: demo.oe, fitment };
}

export const DEMO_REVIEWS = [
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
