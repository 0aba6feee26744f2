import { describe, expect, it } from "vitest";
import {
  breakAt,
  discounted,
  formatBreaks,
  groupPrice,
  mergeSameParts,
  nextBreak,
  nextBreakHint,
  parseBreaks,
  priceTable,
  unitPrice,
  type PriceGroupRules,
  type PricedPart,
  type VolumeBreak,
} from "./pricing";

const breaks: VolumeBreak[] = [
  { minQuantity: 500, percentOff: 5, unitPriceCents: null },
  { minQuantity: 1000, percentOff: null, unitPriceCents: 1100 },
];
const pads: PricedPart = {
  priceCents: 1200,
  partNumber: "PW-1003",
  category: "brakes",
  brand: "PartsWorks",
  volumeBreaks: breaks,
};
const group = (over: Partial<PriceGroupRules>): PriceGroupRules => ({
  id: "g",
  name: "Garages",
  percentOff: 0,
  rules: [],
  stacksWithBreaks: false,
  ...over,
});

describe("discounted", () => {
  it.each([
    [1000, 0, 1000],
    [1000, 5, 950],
    [1000, 12.5, 875],
    [999, 10, 899],
    [1, 50, 1],
    [1995, 33.33, 1330],
    [100, 99.99, 0],
  ])("%i cents less %f %% is %i", (cents, percent, expected) => {
    expect(discounted(cents, percent)).toBe(expected);
  });
});

describe("volume breaks", () => {
  it.each([
    [1, null],
    [499, null],
    [500, 500],
    [999, 500],
    [1000, 1000],
    [50_000, 1000],
  ])("at %i units the break reached starts at %s", (quantity, start) => {
    expect(breakAt(breaks, quantity)?.minQuantity ?? null).toBe(start);
  });
  it.each([
    [1, 500],
    [500, 1000],
    [999, 1000],
    [1000, null],
  ])("after %i units the next break starts at %s", (quantity, start) => {
    expect(nextBreak(breaks, quantity)?.minQuantity ?? null).toBe(start);
  });
});

describe("unitPrice", () => {
  it.each([
    [100, 1200, "list"],
    [500, 1140, "break"],
    [1000, 1100, "break"],
  ])("a visitor buying %i pays %i (%s)", (quantity, cents, source) => {
    expect(unitPrice(pads, quantity, null)).toEqual({ unitPriceCents: cents, listPriceCents: 1200, source });
  });
  it("a group's category discount applies below the breaks", () => {
    const garages = group({ rules: [{ kind: "category", value: "brakes", percentOff: 10 }] });
    expect(unitPrice(pads, 100, garages)).toMatchObject({ unitPriceCents: 1080, source: "group" });
  });
  it("the lowest of group and break wins when they do not stack", () => {
    const garages = group({ percentOff: 3 });
    expect(unitPrice(pads, 500, garages)).toMatchObject({ unitPriceCents: 1140, source: "break" });
    expect(unitPrice(pads, 100, garages)).toMatchObject({ unitPriceCents: 1164, source: "group" });
  });
  it("a stacking group takes the break's discount off the group price", () => {
    const garages = group({ percentOff: 10, stacksWithBreaks: true });
    // 1200 - 10 % = 1080; 5 % off that = 1026.
    expect(unitPrice(pads, 500, garages)).toMatchObject({ unitPriceCents: 1026, source: "group+break" });
    // A break's own price is the same share off the group price: 1080 × 1100 / 1200 = 990.
    expect(unitPrice(pads, 1000, garages)).toMatchObject({ unitPriceCents: 990, source: "group+break" });
  });
  it("a net price for the part number beats every discount and ignores case", () => {
    const net = group({
      percentOff: 50,
      rules: [{ kind: "part", value: "pw-1003", unitPriceCents: 700, currency: "USD" }],
    });
    expect(unitPrice(pads, 1, net)).toMatchObject({ unitPriceCents: 700, source: "group" });
  });
  it("a brand rule matches whatever the case and takes the largest of several rules", () => {
    const rules = group({
      rules: [
        { kind: "brand", value: "partsworks", percentOff: 4 },
        { kind: "category", value: "brakes", percentOff: 8 },
      ],
    });
    expect(groupPrice(pads, rules)).toBe(1104);
  });
  it("a group that gives this part nothing prices at list", () => {
    expect(groupPrice(pads, group({ rules: [{ kind: "category", value: "engine", percentOff: 20 }] }))).toBeNull();
    expect(unitPrice(pads, 10, group({}))).toMatchObject({ unitPriceCents: 1200, source: "list" });
  });
  it("never prices a unit below one cent", () => {
    const cheap: PricedPart = { ...pads, priceCents: 1, volumeBreaks: [] };
    expect(unitPrice(cheap, 1, group({ percentOff: 90 })).unitPriceCents).toBe(1);
  });
});

describe("priceTable and nextBreakHint", () => {
  it("lists the customer's price from the minimum order and at each break above it", () => {
    expect(priceTable(pads, null, 100).map((row) => [row.minQuantity, row.unitPriceCents])).toEqual([
      [100, 1200],
      [500, 1140],
      [1000, 1100],
    ]);
  });
  it("starts at a minimum order beyond the first break with that break's price", () => {
    expect(priceTable(pads, null, 600).map((row) => [row.minQuantity, row.unitPriceCents])).toEqual([
      [600, 1140],
      [1000, 1100],
    ]);
  });
  it.each([
    [100, { moreUnits: 400, unitPriceCents: 1140 }],
    [700, { moreUnits: 300, unitPriceCents: 1100 }],
    [1000, null],
  ])("at %i units the hint is %o", (quantity, hint) => {
    expect(nextBreakHint(pads, quantity, null)).toEqual(hint);
  });
  it("says nothing when the group's price already beats the next break", () => {
    expect(nextBreakHint(pads, 100, group({ percentOff: 20 }))).toBeNull();
  });
});

describe("mergeSameParts", () => {
  it("adds the quantities of one part in the order first seen", () => {
    expect(
      mergeSameParts([
        { partId: "a", quantity: 300 },
        { partId: "b", quantity: 5 },
        { partId: "a", quantity: 300 },
      ]),
    ).toEqual([
      { partId: "a", quantity: 600 },
      { partId: "b", quantity: 5 },
    ]);
  });
  it("does not change the lines it was given", () => {
    const lines = [
      { partId: "a", quantity: 1 },
      { partId: "a", quantity: 2 },
    ];
    mergeSameParts(lines);
    expect(lines[0].quantity).toBe(1);
  });
});

describe("the compact syntax of breaks", () => {
  it.each([
    ["", []],
    ["500:-5%", [{ minQuantity: 500, percentOff: 5, unitPriceCents: null }]],
    ["500 : -5 %", [{ minQuantity: 500, percentOff: 5, unitPriceCents: null }]],
    ["1000:11.5", [{ minQuantity: 1000, percentOff: null, unitPriceCents: 1150 }]],
    ["1000:$12", [{ minQuantity: 1000, percentOff: null, unitPriceCents: 1200 }]],
    ["10:0%", [{ minQuantity: 10, percentOff: 0, unitPriceCents: null }]],
    [
      "500:-5%; 1000:11.00",
      [
        { minQuantity: 500, percentOff: 5, unitPriceCents: null },
        { minQuantity: 1000, percentOff: null, unitPriceCents: 1100 },
      ],
    ],
  ])("reads %j", (text, expected) => {
    expect(parseBreaks(text, 1200)).toEqual({ ok: true, breaks: expected });
  });
  it.each([
    ["500", "is not quantity:price"],
    ["0:-5%", "starts at 1 unit or more"],
    ["500:-5%;500:-6%", "overlap"],
    ["1000:-5%;500:-6%", "from the smallest quantity up"],
    ["500:5%", "minus sign"],
    ["500:-100%", "below 100"],
    ["500:-12", "cannot be negative"],
    ["500:abc", "neither a discount"],
    ["500:0.00", "above zero"],
    ["500:13.00", "above the list price"],
    [Array.from({ length: 21 }, (_, i) => `${i + 1}:-1%`).join(";"), "At most 20"],
  ])("refuses %j with a message", (text, message) => {
    const parsed = parseBreaks(text, 1200);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toContain(message);
  });
  it("writes what it reads", () => {
    const text = "500:-5%;1000:11.00";
    const parsed = parseBreaks(text, 1200);
    expect(parsed.ok && formatBreaks(parsed.breaks)).toBe(text);
  });
});
