/**
 * The quick-order pad through its real action: pasted lines checked against the catalogue, valid
 * lines into the cart or ordered at once, and oversized or malformed pastes refused untouched.
 */
import { describe, expect, test } from "vitest";
import { Cart } from "~/models/cart.server";
import { Order } from "~/orders/model/schema.server";
import { Part } from "~/models/part.server";
import { action as padAction } from "~/routes/dashboard.quick-order";
import { createPart } from "../setup/factories";
import { actionArgs, postRequest, settle } from "../setup/requests";
import { expectFieldError, signedIn, snapshot, toastOf } from "./ordering.helpers";
import { DELIVERY_FORM } from "../fixtures/addresses";

const post = (fields: Record<string, string>, cookie?: string) =>
  settle(padAction(actionArgs(postRequest("/dashboard/quick-order", fields, { cookie }))));
const delivery = { phone: "+1 555 0100", ...DELIVERY_FORM };
const cartLines = async (userId: string) =>
  ((await Cart.findOne({ userId }).lean())?.lines ?? []).map((line) => ({
    partId: line.partId.toString(),
    quantity: line.quantity,
  }));

type Check = {
  lineNumbers: number[];
  partNumber: string;
  quantity: number | null;
  lineTotalCents: number | null;
  problem: { message: string } | null;
};

describe("the quick-order pad", () => {
  test("Round up to N: the line below its minimum becomes the minimum, the others stay, and all is checked again", async () => {
    const a = await createPart({ priceCents: 200, minOrderQuantity: 100, availableQuantity: 1000 });
    const b = await createPart({ priceCents: 300, minOrderQuantity: 50, availableQuantity: 80 });
    const { cookie } = await signedIn();
    const lines = `${a.partNumber} 20\n${b.partNumber} 90`;
    const roundUp = (partNumber: string) =>
      settle(
        padAction(
          actionArgs(
            postRequest(
              `/dashboard/quick-order?roundUp=${encodeURIComponent(partNumber)}`,
              { intent: "check", lines },
              {
                cookie,
              },
            ),
          ),
        ),
      );
    const response = await roundUp(a.partNumber.toLowerCase());
    expect(response.status).toBe(200);
    const data = (await response.json()) as { checks: Check[]; remaining: string };
    expect(data.remaining).toBe(`${a.partNumber} 100\n${b.partNumber} 90`);
    expect(data.checks.map((check) => [check.partNumber, check.quantity, check.problem?.message ?? "OK"])).toEqual([
      [a.partNumber, 100, "OK"],
      [b.partNumber, 90, "Only 80 units are available"],
    ]);
    // Only a line below its minimum is rounded: above the stock it stays as typed.
    const other = (await (await roundUp(b.partNumber)).json()) as { remaining?: string; checks: Check[] };
    expect(other.remaining).toBeUndefined();
    expect(other.checks[1].quantity).toBe(90);
  });

  test("checks every line: separators, unknown numbers, minimum, stock, unreadable quantities, duplicates merged", async () => {
    const a = await createPart({ priceCents: 200, minOrderQuantity: 100, availableQuantity: 1000 });
    const b = await createPart({ priceCents: 300, minOrderQuantity: 50, availableQuantity: 80 });
    const { user, cookie } = await signedIn();
    const before = await snapshot({ partIds: [a.id, b.id] });
    const text = [
      `${a.partNumber.toLowerCase()}\t150`,
      "",
      `${b.partNumber}; 90`,
      "NO-SUCH-PART, 100",
      `${a.partNumber} 50`,
      `${b.partNumber},10.5`,
      `${a.partNumber}`,
    ].join("\r\n");
    const response = await post({ intent: "check", lines: text }, cookie);
    expect(response.status).toBe(200);
    const { checks } = (await response.json()) as { checks: Check[] };
    expect(
      checks.map((check) => [
        check.lineNumbers,
        check.partNumber,
        check.quantity,
        check.lineTotalCents,
        check.problem?.message ?? "OK",
      ]),
    ).toEqual([
      [[1, 5], a.partNumber, 200, 40_000, "OK"],
      [[3], b.partNumber, 90, 27_000, "Only 80 units are available"],
      [[4], "NO-SUCH-PART", 100, null, "Unknown part number NO-SUCH-PART"],
      [[6], b.partNumber, null, null, '"10.5" is not a whole number of units'],
      [[7], a.partNumber, null, null, "Add a quantity after the part number"],
    ]);
    expect(await snapshot({ partIds: [a.id, b.id] })).toEqual(before);
    expect(await cartLines(user.id)).toEqual([]);
  });

  test("10,000 pasted lines, 201 lines, an empty pad or a forged intent are refused with a message and change nothing", async () => {
    const [part, x, y, z] = await Promise.all([createPart(), createPart(), createPart(), createPart()]);
    const { user, cookie } = await signedIn();
    const before = await snapshot({ partIds: [part.id] });
    const many = (n: number) => Array.from({ length: n }, () => `${part.partNumber} 100`).join("\n");
    await expectFieldError(
      await post({ intent: "cart", lines: many(10_000) }, cookie),
      "lines",
      "Paste at most 200 lines (20,000 characters)",
    );
    await expectFieldError(
      await post({ intent: "order", lines: many(201), ...delivery }, cookie),
      "lines",
      "At most 200 lines at a time; this has 201",
    );
    await expectFieldError(
      await post({ intent: "cart", lines: " \n\t\n" }, cookie),
      "lines",
      "Type or paste at least one line",
    );
    expect((await post({ intent: "delete-everything", lines: many(1) }, cookie)).status).toBe(400);
    await expectFieldError(
      await post({ intent: "order", lines: many(1), phone: "" }, cookie),
      "phone",
      "Phone is Required",
    );
    // Huge, zero and negative quantities: a message on the line, nothing written.
    const checked = await post(
      { intent: "cart", lines: `${x.partNumber} 99999999999\n${y.partNumber} 0\n${z.partNumber} -5` },
      cookie,
    );
    expect(checked.status).toBe(400);
    expect(((await checked.json()).checks as Check[]).map((check) => check.problem?.message)).toEqual([
      "99999999999 units is more than one line can take",
      "The minimum order is 100 units",
      '"-5" is not a whole number of units',
    ]);
    expect(await snapshot({ partIds: [part.id] })).toEqual(before);
    expect(await cartLines(user.id)).toEqual([]);
  });

  test("the valid lines go into the cart; the pad keeps the lines that need fixing", async () => {
    const a = await createPart({ availableQuantity: 1000 });
    const b = await createPart({ availableQuantity: 1000 });
    const { user, cookie } = await signedIn();
    const partial = await post({ intent: "cart", lines: `${a.partNumber} 100\nBAD-1 5\n${b.partNumber} 20` }, cookie);
    expect(partial.status).toBe(200);
    const body = await partial.json();
    expect(body.message).toMatch(/^1 line added to your cart\. Fix the lines below/);
    expect(body.remaining).toBe(`BAD-1 5\n${b.partNumber} 20`);
    expect(await cartLines(user.id)).toEqual([{ partId: a.id, quantity: 100 }]);

    const all = await post({ intent: "cart", lines: `${b.partNumber} 200` }, cookie);
    expect(all.status).toBe(302);
    expect(all.headers.get("Location")).toBe("/dashboard/cart");
    expect((await toastOf(all))?.message).toBe("1 line added to your cart");
    expect(await cartLines(user.id)).toEqual([
      { partId: a.id, quantity: 100 },
      { partId: b.id, quantity: 200 },
    ]);
  });

  test("order now places one order of every line when all are valid, and nothing when one is not", async () => {
    const parts = await Promise.all(
      Array.from({ length: 20 }, () => createPart({ priceCents: 150, availableQuantity: 500 })),
    );
    const { user, cookie } = await signedIn();
    const lines = parts.map((part) => `${part.partNumber}\t120`).join("\n");

    const refused = await post(
      { intent: "order", lines: `${lines}\n${parts[0].partNumber} 1000`, ...delivery },
      cookie,
    );
    expect(refused.status).toBe(400);
    expect((await refused.json()).result.error[""]).toEqual(["Fix the line marked below before ordering"]);
    expect(await Order.countDocuments({ userId: user.id })).toBe(0);

    const placed = await post({ intent: "order", lines, ...delivery }, cookie);
    expect(placed.status).toBe(302);
    const orders = await Order.find({ userId: user.id }).lean();
    expect(orders).toHaveLength(1);
    expect(placed.headers.get("Location")).toBe(`/dashboard/payment/${orders[0]._id}`);
    expect(orders[0].lines).toHaveLength(20);
    expect(orders[0].netCents).toBe(20 * 150 * 120);
    expect(orders[0].totalCents).toBe(Math.round(20 * 150 * 120 * 1.06)); // with Michigan's 6 %
    for (const part of parts) expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(380);
  });
  test("a line beyond the shelf of a part that may be backordered says what comes now and what waits, as the part page does", async () => {
    const waits = await createPart({ priceCents: 1000, minOrderQuantity: 100, availableQuantity: 300 });
    await Part.updateOne({ _id: waits.id }, { $set: { backorderable: true, restockOn: new Date("2027-01-12") } });
    const refuses = await createPart({ priceCents: 1000, minOrderQuantity: 100, availableQuantity: 300 });
    const { user, cookie } = await signedIn();
    const lines = `${waits.partNumber} 500\n${refuses.partNumber} 500`;
    const before = await snapshot({ partIds: [waits.id, refuses.id] });

    const checked = await post({ intent: "check", lines }, cookie);
    expect(checked.status).toBe(200);
    const { checks } = (await checked.json()) as { checks: (Check & { backorder: string | null })[] };
    expect(checks.map((check) => [check.partNumber, check.problem?.message ?? "OK", check.backorder])).toEqual([
      [waits.partNumber, "OK", "300 now, 200 on backorder, expected Jan 12, 2027"],
      [refuses.partNumber, "Only 300 units are available", null],
    ]);
    // Within the shelf nothing is said about backorders.
    const within = (await (await post({ intent: "check", lines: `${waits.partNumber} 300` }, cookie)).json()) as {
      checks: { backorder: string | null }[];
    };
    expect(within.checks[0].backorder).toBeNull();

    // Ordering both refuses the line that may not wait, and nothing is written.
    const refused = await post({ intent: "order", lines, ...delivery }, cookie);
    expect(refused.status).toBe(400);
    expect(await Order.countDocuments({ userId: user.id })).toBe(0);
    expect(await snapshot({ partIds: [waits.id, refuses.id] })).toEqual(before);

    // The backorderable line alone is ordered: 300 held from the shelf, 200 waiting.
    const placed = await post({ intent: "order", lines: `${waits.partNumber} 500`, ...delivery }, cookie);
    expect(placed.status).toBe(302);
    const order = (await Order.findOne({ userId: user.id }).lean())!;
    expect(order.lines[0]).toMatchObject({ quantity: 500, backorderedQuantity: 200 });
    expect((await Part.findById(waits.id).lean())?.availableQuantity).toBe(0);
  });

  test("part numbers as an ERP or an old invoice writes them: pw1003, PW 1003 and an OE number all find the part", async () => {
    const digits = String(Date.now()).slice(-7);
    const part = await createPart({
      partNumber: `PQ-${digits}`,
      oeNumbers: [`OE ${digits}-77`],
      priceCents: 200,
      minOrderQuantity: 10,
      availableQuantity: 1000,
    });
    // Two parts replacing one OE number: that number names neither.
    await createPart({ partNumber: `PQA-${digits}`, oeNumbers: [`SHARED-${digits}`] });
    await createPart({ partNumber: `PQB-${digits}`, oeNumbers: [`SHARED-${digits}`] });
    const { user, cookie } = await signedIn();
    const lines = [`pq${digits}, 20`, `PQ ${digits} 30`, `oe${digits}77\t40`, `shared-${digits}; 10`].join("\n");
    const checked = await post({ intent: "check", lines }, cookie);
    expect(checked.status).toBe(200);
    const { checks } = (await checked.json()) as { checks: Check[] };
    expect(
      checks.map((check) => [check.lineNumbers, check.partNumber, check.quantity, check.problem?.message ?? "OK"]),
    ).toEqual([
      [[1, 2, 3], part.partNumber, 90, "OK"],
      [
        [4],
        `SHARED-${digits}`,
        10,
        `SHARED-${digits} is an OE number of several parts (PQA-${digits}, PQB-${digits}): use the part number`,
      ],
    ]);

    const added = await post({ intent: "cart", lines: `pq${digits} 20\nPQ ${digits}, 30\noe ${digits}-77 40` }, cookie);
    expect(added.status).toBe(302);
    expect(await cartLines(user.id)).toEqual([{ partId: part.id, quantity: 90 }]);
  });

  test("two lines of one part, typed two ways, are one line at the combined quantity's volume break", async () => {
    const digits = String(Date.now()).slice(-6);
    await createPart({
      partNumber: `PM-${digits}`,
      priceCents: 1250,
      availableQuantity: 5000,
      volumeBreaks: [{ minQuantity: 500, percentOff: 5, unitPriceCents: null }],
    });
    const { user, cookie } = await signedIn();
    const lines = `PM-${digits}, 300\npm${digits}, 300`;
    const checked = await (await post({ intent: "check", lines }, cookie)).json();
    expect(checked.checks).toHaveLength(1);
    expect(checked.checks[0]).toMatchObject({ quantity: 600, lineNumbers: [1, 2], lineTotalCents: 1188 * 600 });
    expect(checked.checks[0].part.priceCents).toBe(1188);
    const placed = await post({ intent: "order", lines, phone: "+1 555 0100", ...DELIVERY_FORM }, cookie);
    expect(placed.status).toBe(302);
    const order = await Order.findOne({ userId: user.id }).lean();
    expect(order!.lines).toHaveLength(1);
    expect(order!.lines[0]).toMatchObject({ quantity: 600, unitPriceCents: 1188, priceSource: "break" });
  });
});
