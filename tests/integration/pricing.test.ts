/**
 * Prices and tax against the real database: the pricing function over a table of cases (list,
 * volume break, group by category and brand, group net price, group and break, rounding), every
 * tax case, and prices and tax frozen on a placed order whatever changes afterwards.
 */
import { describe, expect, test } from "vitest";
import { Order } from "~/orders/model/schema.server";
import { Part } from "~/models/part.server";
import { savePriceGroup, type PriceGroupInput } from "~/models/price-group.server";
import { setPriceGroup, setTaxProfile } from "~/models/user-admin.server";
import { placeCustomerOrder } from "~/orders/service.server";
import { parseBreaks, formatBreaks, nextBreakHint, priceWith } from "~/domain/pricing";
import { parseRules } from "~/forms/pricing-forms";
import { getPart } from "~/models/part.server";
import { priceLines } from "~/services/pricing.server";
import { seller } from "~/content/tax-rates";
import { rateTableSchema, sellerIdentitySchema, taxLinesFor, taxPlaceFor, type TaxProfile } from "~/domain/tax";
import { createPart, createUser } from "../setup/factories";
import { DETROIT } from "../fixtures/addresses";

const BREAKS = parseBreaks("100:-0%;500:-5%;1000:-10%");
if (!BREAKS.ok) throw new Error("the test's breaks parse");

async function customerIn(group: PriceGroupInput | null, tax: TaxProfile | null = null) {
  const user = await createUser({});
  if (group) {
    const saved = await savePriceGroup({ ...group, name: `${group.name} ${user.id}` });
    await setPriceGroup(user.id, saved!.id);
  }
  if (tax) await setTaxProfile(user.id, tax);
  return user;
}

const noGroup = null;
const distributor: PriceGroupInput = { name: "Distributor", percentOff: 15, rules: [], stacksWithBreaks: false };
const fleetBrakes: PriceGroupInput = {
  name: "Fleet",
  percentOff: 0,
  rules: [{ kind: "category", value: "brakes", percentOff: 8 }],
  stacksWithBreaks: false,
};
const stacking: PriceGroupInput = { ...distributor, name: "Stacking", stacksWithBreaks: true };

describe("the pricing function", () => {
  const cases: {
    name: string;
    group: PriceGroupInput | null;
    part: { priceCents: number; category?: string; breaks?: boolean };
    quantity: number;
    unit: number;
    source: string;
    netPart?: (partNumber: string) => PriceGroupInput;
  }[] = [
    { name: "list price, no group, no break", group: noGroup, part: { priceCents: 1250 }, quantity: 100, unit: 1250, source: "list" },
    { name: "below the first real break: list", group: noGroup, part: { priceCents: 1250, breaks: true }, quantity: 499, unit: 1250, source: "list" },
    { name: "a break at 500 (-5%)", group: noGroup, part: { priceCents: 1250, breaks: true }, quantity: 500, unit: 1188, source: "break" },
    { name: "a break at 1,000 (-10%)", group: noGroup, part: { priceCents: 1250, breaks: true }, quantity: 1500, unit: 1125, source: "break" },
    { name: "group by category (brakes -8%)", group: fleetBrakes, part: { priceCents: 1000, category: "brakes" }, quantity: 100, unit: 920, source: "group" },
    { name: "group by category: another category pays list", group: fleetBrakes, part: { priceCents: 1000, category: "filters" }, quantity: 100, unit: 1000, source: "list" },
    { name: "group -15% beats a -5% break (not stacked)", group: distributor, part: { priceCents: 1250, breaks: true }, quantity: 500, unit: 1063, source: "group" },
    { name: "group and break stacked when the group says so", group: stacking, part: { priceCents: 1250, breaks: true }, quantity: 1000, unit: 957, source: "group+break" },
    {
      name: "group net price for a part number",
      group: null,
      netPart: (partNumber) => ({ name: "Net", percentOff: 0, rules: [{ kind: "part", value: partNumber, unitPriceCents: 777, currency: "USD" }], stacksWithBreaks: false }),
      part: { priceCents: 1250, breaks: true },
      quantity: 100,
      unit: 777,
      source: "group",
    },
    { name: "rounding: 15% off $0.33 is $0.28 (half up)", group: distributor, part: { priceCents: 33 }, quantity: 100, unit: 28, source: "group" },
  ]; // prettier-ignore

  test.each(cases)("$name", async ({ group, part: partSpec, quantity, unit, source, netPart }) => {
    const part = await createPart({
      priceCents: partSpec.priceCents,
      availableQuantity: 5000,
      ...(partSpec.category ? { category: partSpec.category } : {}),
      ...(partSpec.breaks ? { volumeBreaks: BREAKS.breaks } : {}),
    });
    const user = await customerIn(netPart ? netPart(part.partNumber) : group);
    const priced = await priceLines({ id: user.id }, [{ partId: part.id, quantity }]);
    expect(priced.lines[0]).toMatchObject({ unitPriceCents: unit, listPriceCents: partSpec.priceCents, source });
    expect(priced.lines[0].lineTotalCents).toBe(unit * quantity);
    // A visitor always sees the list price or the break, never a group's.
    const visitor = await priceLines(null, [{ partId: part.id, quantity }]);
    expect(visitor.lines[0].source).not.toMatch(/group/);
  });

  test("totals are sums of whole-cent lines; tax is rounded once on the net", async () => {
    const a = await createPart({ priceCents: 33, availableQuantity: 5000 });
    const b = await createPart({ priceCents: 1999, availableQuantity: 5000 });
    const user = await customerIn(distributor, {
      country: "US",
      state: "OH",
      vatNumber: null,
      exemptionCertificate: null,
    });
    const priced = await priceLines({ id: user.id }, [
      { partId: a.id, quantity: 101 },
      { partId: b.id, quantity: 103 },
    ]);
    // 15% off: 28 and 1699 cents a unit.
    expect(priced.lines.map((line) => line.lineTotalCents)).toEqual([28 * 101, 1699 * 103]);
    expect(priced.netCents).toBe(28 * 101 + 1699 * 103);
    // Ohio 5.75% of 177,825 cents is 10,224.94 cents: 10,225.
    expect(priced.taxCents).toBe(10_225);
    expect(priced.totalCents).toBe(priced.netCents + 10_225);
  });

  test("two lines of the same part are priced together: 300 and 300 reach the break at 500", async () => {
    const part = await createPart({ priceCents: 1250, availableQuantity: 5000, volumeBreaks: BREAKS.breaks });
    const user = await customerIn(noGroup);
    const priced = await priceLines({ id: user.id }, [
      { partId: part.id, quantity: 300 },
      { partId: part.id, quantity: 300 },
    ]);
    expect(priced.lines).toHaveLength(1);
    expect(priced.lines[0]).toMatchObject({ quantity: 600, unitPriceCents: 1188, source: "break" });
    expect(priced.netCents).toBe(1188 * 600);
    const placed = await placeCustomerOrder({
      lines: [
        { partId: part.id, quantity: 300 },
        { partId: part.id, quantity: 300 },
      ],
      phone: "+1 555 0100",
      delivery: DETROIT,
      user: { id: user.id },
    });
    expect(placed.ok && placed.order.lines).toEqual([
      expect.objectContaining({ quantity: 600, unitPriceCents: 1188, lineTotalCents: 1188 * 600 }),
    ]);
    // Taxed in the seller's own state (the address names no other): 6 % of the net.
    expect(placed.ok && placed.order.taxCents).toBe(Math.round(1188 * 600 * 0.06));
  });

  test("a net price in euros applies to a buyer in euros, on the part's euro list, and not to a buyer in dollars", async () => {
    const part = await createPart({ priceCents: 1250, availableQuantity: 5000 });
    await Part.updateOne({ _id: part.id }, { $set: { prices: [{ currency: "EUR", priceCents: 1150 }] } });
    const rules = parseRules(`part ${part.partNumber.toLowerCase()} = €9.80`);
    if (!rules.ok) throw new Error(rules.message);
    const group = await savePriceGroup({
      name: `Euro net ${part.id}`,
      percentOff: 0,
      rules: rules.rules,
      stacksWithBreaks: false,
    });
    const parts = new Map([[part.id, (await getPart(part.id))!]]);
    const lines = [{ partId: part.id, quantity: 100 }];
    expect(priceWith({ group, tax: null, currency: "EUR" }, parts, lines)).toMatchObject({
      currency: "EUR",
      lines: [{ unitPriceCents: 980, listPriceCents: 1150, source: "group", lineTotalCents: 98_000 }],
      unpriced: [],
    });
    expect(priceWith({ group, tax: null, currency: "USD" }, parts, lines)).toMatchObject({
      currency: "USD",
      lines: [{ unitPriceCents: 1250, listPriceCents: 1250, source: "list" }],
    });
    // No list in pounds: not sold in pounds, whatever the group says in euros.
    expect(priceWith({ group, tax: null, currency: "GBP" }, parts, lines)).toMatchObject({
      lines: [],
      unpriced: [part.id],
    });
  });

  test("the part page's hint names the units to the next lower price", () => {
    const part = {
      priceCents: 1250,
      partNumber: "X",
      category: "other",
      brand: "PartsWorks",
      volumeBreaks: BREAKS.breaks,
    };
    expect(nextBreakHint(part, 300, null)).toEqual({ moreUnits: 200, unitPriceCents: 1188 });
    expect(nextBreakHint(part, 1000, null)).toBeNull();
  });
});

describe("volume breaks as typed", () => {
  test.each([
    ["500:-5%;100:-0%", /smallest quantity up/],
    ["500:-5%;500:-10%", /overlap/],
    ["500:-120%", /below 100/],
    ["500:-100%", /below 100/],
    ["500:+5%", /neither a discount/],
    ["500:-3.50", /cannot be negative/],
    ["500:99.00", /above the list price/],
    ["five hundred", /not quantity:price/],
  ])("%s is refused", (text, message) => {
    const parsed = parseBreaks(text, 1250);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toMatch(message);
  });

  test("the compact syntax reads back as written", () => {
    const parsed = parseBreaks("100:-0%; 500:-5%;1000:11.25", 1250);
    expect(parsed.ok && formatBreaks(parsed.breaks)).toBe("100:-0%;500:-5%;1000:11.25");
  });
});

describe("tax", () => {
  const net = 100_000;
  const profile = (fields: Partial<TaxProfile>): TaxProfile => ({
    country: "US",
    state: null,
    vatNumber: null,
    exemptionCertificate: null,
    ...fields,
  });
  /** The tax lines of an order of `net` for a buyer with these details, delivered to `place` ("US-OH", "DE"). */
  const taxed = (tax: TaxProfile | null, place?: string) => {
    const [country, region = ""] = place?.split("-") ?? [];
    return taxLinesFor(tax, net, taxPlaceFor(tax, place ? { country, region } : null));
  };

  test("domestic: the seller's own state's sales tax", () => {
    expect(taxed(profile({ state: "MI" }))).toEqual([
      { kind: "sales-tax", label: "MI sales tax 6%", rate: 6, baseCents: net, amountCents: 6000, note: null },
    ]);
  });

  test("another US state: its rate where the seller collects, none (with the reason) where it does not", () => {
    expect(taxed(profile({ state: "IL" }))[0]).toMatchObject({ kind: "sales-tax", amountCents: 6250 });
    expect(taxed(profile({ state: "TX" }))[0]).toMatchObject({
      kind: "not-collected",
      amountCents: 0,
      note: expect.stringContaining("does not collect sales tax in TX"),
    });
  });

  test("exempt: a recorded certificate, printed as the reason", () => {
    expect(taxed(profile({ state: "MI", exemptionCertificate: "MI-RS-0042" }))[0]).toMatchObject({
      kind: "exempt",
      amountCents: 0,
      note: expect.stringContaining("MI-RS-0042"),
    });
  });

  test("EU intra-community supply: goods to a business with a valid VAT number in another member state", () => {
    expect(taxed(profile({ country: "DE", vatNumber: "DE811907980" }))[0]).toMatchObject({
      kind: "intra-community",
      amountCents: 0,
      note: expect.stringContaining("Intra-community supply of goods"),
    });
    // A number that fails its country's format is no intra-community supply: German VAT is charged.
    expect(taxed(profile({ country: "DE", vatNumber: "DE12" }))[0]).toMatchObject({
      kind: "vat",
      rate: 19,
      amountCents: 19_000,
    });
    // In the seller's own EU VAT country, VAT is charged even to a business.
    expect(taxed(profile({ country: "NL", vatNumber: "NL123456789B01" }))[0]).toMatchObject({
      kind: "vat",
      amountCents: 21_000,
    });
  });

  test("outside the EU and the US: an export, no tax, with the reason", () => {
    expect(taxed(profile({ country: "CA" }))[0]).toMatchObject({
      kind: "export",
      amountCents: 0,
      note: expect.stringContaining("export"),
    });
  });

  test("no tax details recorded: the delivery address's country and region decide; no address yet is taxed at home", () => {
    const cases: [string, string | undefined, { kind: string; amountCents: number; label?: string }][] = [
      ["a US state where the seller collects", "US-OH", { kind: "sales-tax", amountCents: 5750, label: "OH sales tax 5.75%" }],
      ["a state where the seller does not collect", "US-TX", { kind: "not-collected", amountCents: 0 }],
      ["an EU country", "DE", { kind: "vat", amountCents: 19_000, label: "VAT DE 19%" }],
      ["another EU country", "IT", { kind: "vat", amountCents: 22_000 }],
      ["a country outside the US and the EU", "CA-ON", { kind: "export", amountCents: 0 }],
      ["no address at all (a visitor's part page): the seller's own state", undefined, { kind: "sales-tax", amountCents: 6000 }],
    ]; // prettier-ignore
    for (const [name, place, expected] of cases) {
      expect(taxed(null, place)[0], name).toMatchObject(expected);
    }
  });

  test("the delivery address wins over the recorded tax location; only a certificate or a VAT number removes tax", () => {
    // An Ohio customer's goods going to Michigan pay Michigan's tax.
    expect(taxed(profile({ state: "OH" }), "US-MI")[0]).toMatchObject({ kind: "sales-tax", rate: 6 });
    // A German business shipping to its own warehouse in Germany: an intra-community supply.
    expect(taxed(profile({ country: "DE", vatNumber: "DE811907980" }), "DE")[0]).toMatchObject({
      kind: "intra-community",
    });
    // The same business taking the goods in the Netherlands (the seller's EU VAT country): Dutch VAT.
    expect(taxed(profile({ country: "DE", vatNumber: "DE811907980" }), "NL")[0]).toMatchObject({
      kind: "vat",
      rate: 21,
    });
    // Its goods going to Detroit: Michigan sales tax, the VAT number does not matter there.
    expect(taxed(profile({ country: "DE", vatNumber: "DE811907980" }), "US-MI")[0]).toMatchObject({
      kind: "sales-tax",
      amountCents: 6000,
    });
    // A certificate exempts US deliveries in any state the seller collects in.
    expect(taxed(profile({ state: "MI", exemptionCertificate: "MI-RS-0042" }), "US-OH")[0]).toMatchObject({
      kind: "exempt",
    });
  });

  test("no order is ever left untaxed without a reason: every case prints a rate or a note", () => {
    const buyers = [
      null,
      profile({ state: "MI" }),
      profile({ state: "TX" }),
      profile({ country: "DE", vatNumber: "DE811907980" }),
    ];
    const places = [undefined, "US-MI", "US-TX", "DE", "JP"];
    for (const buyer of buyers)
      for (const place of places) {
        const [line] = taxed(buyer, place);
        expect(line.kind).not.toBe("unknown");
        expect(line.amountCents > 0 || Boolean(line.note)).toBe(true);
      }
  });

  test("the rate tables and the seller's identity are checked: a rate over 100 % or a placeholder number is refused", () => {
    expect(rateTableSchema.safeParse({ MI: 6 }).success).toBe(true);
    const over = rateTableSchema.safeParse({ MI: 106 });
    expect(over.success).toBe(false);
    expect(over.error?.issues[0].message).toBe("A tax rate is at most 100 %");
    expect(rateTableSchema.safeParse({ MI: -1 }).success).toBe(false);
    expect(sellerIdentitySchema.safeParse(seller).success).toBe(true);
    expect(sellerIdentitySchema.safeParse({ ...seller, euVat: { country: "NL", number: "NL000000000" } }).success).toBe(
      false,
    );
    expect(sellerIdentitySchema.safeParse({ ...seller, euVat: { country: "US", number: "123456789" } }).success).toBe(
      false,
    );
    expect(sellerIdentitySchema.safeParse({ ...seller, taxId: "TBD" }).success).toBe(false);
  });
});

describe("an order freezes its prices and tax", () => {
  test("a later change of group, break, list price or tax details never changes a placed order; a posted price is ignored", async () => {
    const part = await createPart({ priceCents: 1250, availableQuantity: 5000, volumeBreaks: BREAKS.breaks });
    const user = await customerIn(distributor, {
      country: "US",
      state: "MI",
      vatNumber: null,
      exemptionCertificate: null,
    });
    const placed = await placeCustomerOrder({
      // What a form could carry besides the part and quantity is never read.
      lines: [{ partId: part.id, quantity: 600, unitPriceCents: 1, taxCents: 0 } as never],
      phone: "+1 555 0100",
      delivery: DETROIT,
      user: { id: user.id },
    });
    expect(placed.ok).toBe(true);
    if (!placed.ok) return;
    const expected = { net: 1063 * 600, tax: Math.round(1063 * 600 * 0.06) };
    expect(placed.order).toMatchObject({
      netCents: expected.net,
      taxCents: expected.tax,
      totalCents: expected.net + expected.tax,
    });
    expect(placed.order.lines[0]).toMatchObject({
      unitPriceCents: 1063,
      listUnitPriceCents: 1250,
      priceSource: "group",
    });

    await Part.updateOne({ _id: part.id }, { $set: { priceCents: 2000, volumeBreaks: [] } });
    await setPriceGroup(user.id, null);
    await setTaxProfile(user.id, { country: "CA", state: null, vatNumber: null, exemptionCertificate: null });
    const stored = await Order.findById(placed.order.id).lean();
    expect(stored).toMatchObject({
      netCents: expected.net,
      taxCents: expected.tax,
      totalCents: expected.net + expected.tax,
    });
    expect(stored!.lines[0]).toMatchObject({ unitPriceCents: 1063, lineTotalCents: 1063 * 600 });
    expect(stored!.taxLines![0]).toMatchObject({ kind: "sales-tax", rate: 6, baseCents: expected.net });
  });

  test("an order placed before tax lines shows its total as net, with no tax", async () => {
    const part = await createPart({ priceCents: 500 });
    const user = await createUser({});
    const doc = await Order.create({
      lines: [
        {
          partId: part.id,
          partNumber: part.partNumber,
          productName: part.name,
          unitPriceCents: 500,
          quantity: 100,
          lineTotalCents: 50_000,
        },
      ],
      totalCents: 50_000,
      phone: "1",
      address: "a",
      userId: user.id,
      userEmail: user.email,
      userName: user.name,
    });
    const { toOrderView } = await import("~/orders/model/view.server");
    expect(toOrderView(doc.toObject())).toMatchObject({
      netCents: 50_000,
      taxCents: 0,
      taxLines: [],
      totalCents: 50_000,
    });
  });
});
