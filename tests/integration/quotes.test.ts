/**
 * Quotes through the real services and checkout on the local database: a request, a version below
 * the floor refused without the override, a revision, a second version, and accepting it places the
 * order at its prices through checkout (stock held, linked both ways), once. A version replaced,
 * expired or already accepted cannot be accepted; a failure at any checkout step gives the quote back.
 */
import { describe, expect, test } from "vitest";
import { Audit } from "~/models/audit.server";
import { Company } from "~/models/company.server";
import { Outbox } from "~/models/outbox.server";
import { Part } from "~/models/part.server";
import { getUserById } from "~/models/user.server";
import { CHECKOUT_STEPS } from "~/orders/checkout.server";
import { Quote } from "~/orders/model/quote-schema.server";
import { Order } from "~/orders/model/schema.server";
import { sweepQuotes } from "~/orders/quote-jobs.server";
import {
  acceptNotes,
  acceptQuote,
  askForRevision,
  declineQuote,
  quoteForCustomer,
  requestQuote,
  sendQuoteVersion,
} from "~/orders/quotes.server";
import { placeCustomerOrder } from "~/orders/service.server";
import { createPart, createUser } from "../setup/factories";
import { DETROIT } from "../fixtures/addresses";

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const delivery = { phone: "+1 555 0100", delivery: DETROIT };

async function setup() {
  const owner = await createUser({ name: "Olga Owner" });
  await Company.updateOne({ _id: owner.companyId }, { $set: { companyName: `Fleet ${owner.id.slice(-5)}` } });
  const buyer = (await getUserById(owner.id))!;
  const admin = await createUser({ role: "admin", name: "Sam Staff" });
  const pads = await createPart({ priceCents: 1250, minOrderQuantity: 100, availableQuantity: 5000 });
  const discs = await createPart({ priceCents: 4000, minOrderQuantity: 10, availableQuantity: 50 });
  await Part.updateOne({ _id: pads.id }, { $set: { quoteFloors: [{ currency: "USD", priceCents: 1000 }] } });
  await Part.updateOne(
    { _id: discs.id },
    { $set: { backorderable: true, leadTimeDays: 14, quoteFloors: [{ currency: "USD", priceCents: 3500 }] } },
  );
  return { buyer, admin, pads, discs };
}

const priced = (
  lines: { partId: string; unitPrice: string; belowFloor?: boolean }[],
  extra: { expectedVersions: number; validUntil?: string; note?: string },
) => ({
  intent: "send" as const,
  lines: lines.map((line) => ({ ...line, leadTimeDays: 5 })),
  validUntil: day(14),
  terms: "Net 30, delivered duty paid",
  ...extra,
});

describe("a quote from request to order", () => {
  test("asked, priced within the floor, revised, accepted at version 2's prices through checkout, once", async () => {
    const { buyer, admin, pads, discs } = await setup();

    // A quantity under the part's minimum is refused at its field, nothing written.
    const before = await Quote.countDocuments({ userId: buyer.id });
    const under = await requestQuote(buyer, {
      intent: "request",
      lines: [{ partNumber: pads.partNumber, quantity: 50 }],
    });
    expect(under).toMatchObject({
      ok: false,
      status: 400,
      errors: { "lines[0].quantity": [`The minimum order of ${pads.partNumber} is 100 units`] },
    });
    expect(await Quote.countDocuments({ userId: buyer.id })).toBe(before);

    const asked = await requestQuote(buyer, {
      intent: "request",
      lines: [
        { partNumber: pads.partNumber, quantity: 2000, targetPrice: "10.50" },
        { partNumber: discs.partNumber, quantity: 80 },
      ],
      wantedBy: day(30),
      note: "Quarterly fleet order",
    });
    if (!asked.ok) throw new Error(JSON.stringify(asked.errors));
    const quote = asked.quote;
    expect(quote).toMatchObject({ status: "requested", currency: "USD", label: expect.stringMatching(/^Q-\d{6}$/) });
    expect(quote.lines[0]).toMatchObject({ quantity: 2000, targetUnitPriceCents: 1050 });
    expect(await Outbox.countDocuments({ _id: `quote:${quote.id}:requested:admins` })).toBe(1);

    // Below the floor without the override: refused at the field; a validity past three months too.
    const low = await sendQuoteVersion(
      admin,
      quote.id,
      priced(
        [
          { partId: pads.id, unitPrice: "9.50" },
          { partId: discs.id, unitPrice: "36.00" },
        ],
        { expectedVersions: 0, validUntil: day(200) },
      ),
    );
    expect(low).toMatchObject({ ok: false, status: 400 });
    if (low.ok) return;
    expect(low.errors["lines[0].unitPrice"]?.[0]).toContain("Below the floor price of $10.00");
    expect(low.errors.validUntil?.[0]).toContain("at most 92 days");
    expect((await Quote.findById(quote.id).lean())!.versions).toHaveLength(0);

    const v1 = await sendQuoteVersion(
      admin,
      quote.id,
      priced(
        [
          { partId: pads.id, unitPrice: "10.80" },
          { partId: discs.id, unitPrice: "$36.00" },
        ],
        { expectedVersions: 0 },
      ),
    );
    if (!v1.ok) throw new Error(JSON.stringify(v1.errors));
    expect(v1.quote.current).toMatchObject({ label: `${quote.label}-1`, netCents: 2000 * 1080 + 80 * 3600 });
    // A second admin's send from the same page finds it moved on.
    expect(
      await sendQuoteVersion(admin, quote.id, priced([{ partId: pads.id, unitPrice: "11" }], { expectedVersions: 0 })),
    ).toMatchObject({ ok: false, status: 409 });

    const revised = await askForRevision(buyer, quote.id, "Can you do 10.20 on the pads?");
    expect(revised).toMatchObject({ ok: true, quote: { status: "revision" } });
    // With the override ticked, below the floor is sent and audited.
    const v2 = await sendQuoteVersion(
      admin,
      quote.id,
      priced(
        [
          { partId: pads.id, unitPrice: "9.90", belowFloor: true },
          { partId: discs.id, unitPrice: "36.00" },
        ],
        { expectedVersions: 1, note: "Our best price for the year" },
      ),
    );
    if (!v2.ok) throw new Error(JSON.stringify(v2.errors));
    expect(v2.quote.current!.lines[0]).toMatchObject({ unitPriceCents: 990, belowFloor: true });
    expect(await Audit.countDocuments({ action: "quote.floor-override", targetId: quote.id })).toBe(1);
    expect(await Outbox.countDocuments({ _id: `quote:${quote.id}:sent:2` })).toBe(1);

    // Discs: 50 on the shelf, 80 quoted: told before accepting that 30 wait on backorder.
    const notes = await acceptNotes(v2.quote);
    expect(notes.find((note) => note.partId === discs.id)).toMatchObject({ kind: "backorder" });

    // Version 1 was replaced: refused, nothing ordered.
    const old = await acceptQuote(buyer, quote.id, { intent: "accept", version: 1, ...delivery });
    expect(old).toMatchObject({ ok: false, refusal: expect.stringContaining(`replaced by ${quote.label}-2`) });
    expect(await Order.countDocuments({ quoteId: quote.id })).toBe(0);

    const placed = await acceptQuote(buyer, quote.id, { intent: "accept", version: 2, payment: "card", ...delivery });
    if (!("order" in placed)) throw new Error(JSON.stringify(placed));
    expect(placed.order.lines.map((line) => [line.partNumber, line.unitPriceCents, line.quantity])).toEqual([
      [pads.partNumber, 990, 2000],
      [discs.partNumber, 3600, 80],
    ]);
    expect(placed.order.quote).toEqual({ id: quote.id, label: `${quote.label}-2` });
    expect((await Order.findById(placed.order.id).lean())!.lines.every((line) => line.priceSource === "quote")).toBe(
      true,
    );
    const accepted = await quoteForCustomer(quote.id, buyer);
    expect(accepted).toMatchObject({ status: "accepted", orderId: placed.order.id, acceptedVersion: 2 });
    expect(accepted!.orderNumber).toBe(placed.order.number);
    expect((await Part.findById(pads.id).lean())!.availableQuantity).toBe(3000);
    expect(await Audit.countDocuments({ action: "quote.accept", targetId: quote.id })).toBe(1);

    const again = await acceptQuote(buyer, quote.id, { intent: "accept", version: 2, payment: "card", ...delivery });
    expect(again).toMatchObject({ ok: false, refusal: expect.stringContaining("already accepted") });
    expect(await Order.countDocuments({ quoteId: quote.id })).toBe(1);
  });

  test("another company's buyer cannot see or accept it; the quote is accepted whole unless partial is allowed", async () => {
    const { buyer, admin, pads, discs } = await setup();
    const stranger = (await getUserById((await createUser()).id))!;
    const asked = await requestQuote(buyer, {
      intent: "request",
      lines: [
        { partNumber: pads.partNumber, quantity: 100 },
        { partNumber: discs.partNumber, quantity: 10 },
      ],
    });
    if (!asked.ok) throw new Error("not asked");
    const sent = await sendQuoteVersion(
      admin,
      asked.quote.id,
      priced(
        [
          { partId: pads.id, unitPrice: "11.00" },
          { partId: discs.id, unitPrice: "39.00" },
        ],
        { expectedVersions: 0 },
      ),
    );
    expect(sent.ok).toBe(true);
    expect(await quoteForCustomer(asked.quote.id, stranger)).toBeNull();
    expect(await acceptQuote(stranger, asked.quote.id, { intent: "accept", version: 1, ...delivery })).toMatchObject({
      ok: false,
      status: 404,
    });
    const some = await acceptQuote(buyer, asked.quote.id, {
      intent: "accept",
      version: 1,
      partIds: [pads.id],
      ...delivery,
    });
    expect(some).toMatchObject({ ok: false, refusal: expect.stringContaining("accepted whole") });
    expect((await Quote.findById(asked.quote.id).lean())!.accepting).toBeUndefined();
  });

  test("a failure after any checkout step leaves the quote open and nothing ordered; two acceptances at once place one order", async () => {
    const { buyer, admin, pads } = await setup();
    const asked = await requestQuote(buyer, {
      intent: "request",
      lines: [{ partNumber: pads.partNumber, quantity: 300 }],
    });
    if (!asked.ok) throw new Error("not asked");
    const id = asked.quote.id;
    await sendQuoteVersion(admin, id, priced([{ partId: pads.id, unitPrice: "11.00" }], { expectedVersions: 0 }));
    const commit = CHECKOUT_STEPS.indexOf("confirm-or-send-for-approval");
    for (const failing of CHECKOUT_STEPS.slice(0, commit)) {
      await expect(
        placeCustomerOrder(
          { lines: [{ partId: pads.id, quantity: 300 }], ...delivery, user: buyer, quote: { id, version: 1 } },
          {
            afterStep: (name) => {
              if (name === failing) throw new Error(`failed after ${name}`);
            },
          },
        ),
      ).rejects.toThrow(`failed after ${failing}`);
      const quote = await Quote.findById(id).lean();
      expect({ failing, status: quote!.status, accepting: quote!.accepting }).toEqual({
        failing,
        status: "quoted",
        accepting: undefined,
      });
      expect((await Part.findById(pads.id).lean())!.availableQuantity).toBe(5000);
    }
    const both = await Promise.all(
      [1, 2].map(() => acceptQuote(buyer, id, { intent: "accept", version: 1, payment: "card", ...delivery })),
    );
    expect(both.filter((result) => "order" in result)).toHaveLength(1);
    expect(await Order.countDocuments({ quoteId: id, status: { $ne: "failed" } })).toBe(1);
  });

  test("a version past its validity cannot be accepted; the sweep expires it and tells the buyer; a declined request says why", async () => {
    const { buyer, admin, pads } = await setup();
    const asked = await requestQuote(buyer, {
      intent: "request",
      lines: [{ partNumber: pads.partNumber, quantity: 100 }],
    });
    if (!asked.ok) throw new Error("not asked");
    const id = asked.quote.id;
    await sendQuoteVersion(
      admin,
      id,
      priced([{ partId: pads.id, unitPrice: "12.00" }], { expectedVersions: 0, validUntil: day(0) }),
    );
    const later = new Date(Date.now() + 2 * 86_400_000);
    const swept = await sweepQuotes(later);
    expect(swept.expired).toBeGreaterThanOrEqual(1);
    expect(await Quote.findById(id).lean()).toMatchObject({ status: "expired" });
    expect(await Outbox.countDocuments({ _id: `quote:${id}:expired` })).toBe(1);
    const refused = await acceptQuote(buyer, id, { intent: "accept", version: 1, ...delivery });
    expect(refused).toMatchObject({ ok: false, refusal: expect.stringContaining("expired") });

    const other = await requestQuote(buyer, {
      intent: "request",
      lines: [{ partNumber: pads.partNumber, quantity: 100 }],
    });
    if (!other.ok) throw new Error("not asked");
    expect(await declineQuote(admin, other.quote.id, "We no longer make this part in that size")).toMatchObject({
      ok: true,
      quote: { status: "declined", declineReason: "We no longer make this part in that size" },
    });
    expect(await Outbox.countDocuments({ _id: `quote:${other.quote.id}:declined` })).toBe(1);
    expect(await declineQuote(admin, other.quote.id, "again")).toMatchObject({ ok: false, status: 409 });
  });

  test("the buyer is reminded once before a version runs out; staff once of a request waiting more than a day", async () => {
    const { buyer, admin, pads } = await setup();
    const asked = await requestQuote(buyer, {
      intent: "request",
      lines: [{ partNumber: pads.partNumber, quantity: 100 }],
    });
    const waiting = await requestQuote(buyer, {
      intent: "request",
      lines: [{ partNumber: pads.partNumber, quantity: 200 }],
    });
    if (!asked.ok || !waiting.ok) throw new Error("not asked");
    const id = asked.quote.id;
    await sendQuoteVersion(
      admin,
      id,
      priced([{ partId: pads.id, unitPrice: "12.00" }], { expectedVersions: 0, validUntil: day(2) }),
    );
    const tomorrow = new Date(Date.now() + 25 * 3_600_000);
    await sweepQuotes(tomorrow);
    await sweepQuotes(tomorrow);
    expect(await Outbox.countDocuments({ _id: `quote:${id}:expiring:1` })).toBe(1);
    const staffMails = await Outbox.find({ _id: /^quotes:waiting:/, text: new RegExp(waiting.quote.label) }).lean();
    expect(staffMails).toHaveLength(1);
    expect((await Quote.findById(waiting.quote.id).lean())!.staffRemindedAt).toBeInstanceOf(Date);
    expect((await Quote.findById(id).lean())!.staffRemindedAt).toBeUndefined();
  });
});
