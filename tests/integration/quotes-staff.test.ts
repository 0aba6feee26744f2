/**
 * The staff's quote screens through their loaders and actions: only admins open or answer a quote;
 * a price below the floor is refused at its field unless the override is ticked (then audited); a
 * validity in the past is refused at its field; two admins sending at once leave one version and a
 * 409 said above the form; a decline needs its reason; Edit Product sets a floor, never above the list.
 */
import { describe, expect, test } from "vitest";
import { Audit } from "~/models/audit.server";
import { Part } from "~/models/part.server";
import { getUserById } from "~/models/user.server";
import { Quote } from "~/orders/model/quote-schema.server";
import { requestQuote } from "~/orders/quotes.server";
import { loader as listLoader } from "~/routes/dashboard.manageQuotes";
import { action as quoteAction, loader as quoteLoader } from "~/routes/dashboard.manageQuotes_.$id";
import { action as declineAction } from "~/routes/dashboard.manageQuotes_.$id_.decline";
import { action as editAction } from "~/routes/dashboard.manageProducts_.$id.edit";
import { loader as partLoader } from "~/routes/parts.$id";
import { createPart, createUser } from "../setup/factories";
import { actionArgs, getRequest, loaderArgs, postRequest, settle } from "../setup/requests";
import { expectFieldError, signedIn } from "./ordering.helpers";

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** A buyer's request for two parts: a floor of $10.00 set on the first (list $12.50); the second's is its list, $40.00. */
async function requested() {
  const customer = await createUser({ name: "Quinn Buyer" });
  const buyer = (await getUserById(customer.id))!;
  const pads = await createPart({ priceCents: 1250, minOrderQuantity: 10 });
  const discs = await createPart({ priceCents: 4000, minOrderQuantity: 10 });
  await Part.updateOne({ _id: pads.id }, { $set: { quoteFloors: [{ currency: "USD", priceCents: 1000 }] } });
  const outcome = await requestQuote(buyer, {
    intent: "request",
    lines: [
      { partNumber: pads.partNumber, quantity: 100, targetPrice: "9.00" },
      { partNumber: discs.partNumber, quantity: 20 },
    ],
  });
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.errors));
  return { quote: outcome.quote, pads, discs, buyer };
}

type Sent = { pads: string; discs: string; belowFloor?: boolean; expectedVersions?: number; validUntil?: string };

function versionForm(
  ids: { pads: { id: string }; discs: { id: string } },
  { pads, discs, belowFloor, expectedVersions = 0, validUntil = day(20) }: Sent,
) {
  return {
    intent: "send",
    expectedVersions: String(expectedVersions),
    "lines[0].partId": ids.pads.id,
    "lines[0].unitPrice": pads,
    "lines[0].leadTimeDays": "5",
    ...(belowFloor ? { "lines[0].belowFloor": "on" } : {}),
    "lines[1].partId": ids.discs.id,
    "lines[1].unitPrice": discs,
    "lines[1].leadTimeDays": "14",
    validUntil,
    terms: "Net 30",
    note: "",
  };
}

const send = (quoteId: string, fields: Record<string, string>, cookie: string) =>
  settle(
    quoteAction(actionArgs(postRequest(`/dashboard/manageQuotes/${quoteId}`, fields, { cookie }), { id: quoteId })),
  );

describe("the staff's quote screens", () => {
  test("a customer opening or answering them is signed out to log in, and nothing is written", async () => {
    const { quote, pads, discs } = await requested();
    const { cookie } = await signedIn("customer");
    const path = `/dashboard/manageQuotes/${quote.id}`;
    for (const answer of [
      await settle(listLoader(loaderArgs(getRequest("/dashboard/manageQuotes", { cookie })))),
      await settle(quoteLoader(loaderArgs(getRequest(path, { cookie }), { id: quote.id }))),
      await send(quote.id, versionForm({ pads, discs }, { pads: "12.00", discs: "41.00" }), cookie),
      await settle(
        declineAction(
          actionArgs(postRequest(`${path}/decline`, { intent: "decline", reason: "No" }, { cookie }), { id: quote.id }),
        ),
      ),
    ]) {
      expect(answer.status).toBe(302);
      expect(answer.headers.get("Location")).toMatch(/^\/login/);
    }
    const stored = await Quote.findById(quote.id).lean();
    expect(stored).toMatchObject({ status: "requested", versions: [] });

    // An admin asking for a quote that does not exist gets a 404.
    const admin = await signedIn("admin");
    const missing = "b".repeat(24);
    const none = await settle(
      quoteLoader(loaderArgs(getRequest(`/dashboard/manageQuotes/${missing}`, admin), { id: missing })),
    );
    expect(none.status).toBe(404);
  });

  test("the list finds a waiting request by state and customer; the page shows the floor", async () => {
    const { quote, buyer } = await requested();
    const { cookie } = await signedIn("admin");
    const listed = await settle(
      listLoader(
        loaderArgs(
          getRequest(`/dashboard/manageQuotes?status=waiting&customer=${encodeURIComponent(buyer.email)}`, { cookie }),
        ),
      ),
    );
    const body = await listed.json();
    expect(body.quotes.map((each: { id: string }) => each.id)).toEqual([quote.id]);
    expect(body.quotes[0].waitingSince).toBeTruthy();
    const bad = await settle(listLoader(loaderArgs(getRequest("/dashboard/manageQuotes?status=lost", { cookie }))));
    await expectFieldError(bad, "status", "Choose a state from the list");

    const page = await (
      await settle(
        quoteLoader(loaderArgs(getRequest(`/dashboard/manageQuotes/${quote.id}`, { cookie }), { id: quote.id })),
      )
    ).json();
    expect(page.lines[0]).toMatchObject({ listUnitPriceCents: 1250, floorCents: 1000, targetUnitPriceCents: 900 });
  });

  test("below the floor without the override, or a validity past, is refused at its field; with it sent and audited", async () => {
    const { quote, pads, discs } = await requested();
    const { cookie } = await signedIn("admin");

    const below = await send(quote.id, versionForm({ pads, discs }, { pads: "9.50", discs: "41.00" }), cookie);
    await expectFieldError(below, "lines[0].unitPrice", /^Below the floor price of \$10\.00/);
    const past = await send(
      quote.id,
      versionForm({ pads, discs }, { pads: "11.00", discs: "41.00", validUntil: day(-1) }),
      cookie,
    );
    await expectFieldError(past, "validUntil", "The quote must be valid until today or later");
    expect((await Quote.findById(quote.id).lean())?.versions).toHaveLength(0);

    const sent = await send(
      quote.id,
      versionForm({ pads, discs }, { pads: "9.50", discs: "41.00", belowFloor: true }),
      cookie,
    );
    expect(sent.status).toBe(302);
    const stored = await Quote.findById(quote.id).lean();
    expect(stored?.status).toBe("quoted");
    expect(stored?.versions[0].lines.map((line) => [line.unitPriceCents, Boolean(line.belowFloor)])).toEqual([
      [950, true],
      [4100, false],
    ]);
    const override = await Audit.findOne({ action: "quote.floor-override", targetId: quote.id }).lean();
    expect(override).toMatchObject({
      targetType: "quote",
      before: { part: pads.partNumber, floor: "$10.00" },
      after: { part: pads.partNumber, price: "$9.50" },
    });
  });

  test("two admins sending at once: one version, the other a 409 above the form", async () => {
    const { quote, pads, discs } = await requested();
    const [first, second] = await Promise.all([signedIn("admin"), signedIn("admin")]);
    const answers = await Promise.all([
      send(quote.id, versionForm({ pads, discs }, { pads: "12.00", discs: "41.00" }), first.cookie),
      send(quote.id, versionForm({ pads, discs }, { pads: "11.00", discs: "40.00" }), second.cookie),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([302, 409]);
    const refused = await answers.find((answer) => answer.status === 409)!.json();
    expect(refused.error[""][0]).toMatch(/changed just now/);
    expect((await Quote.findById(quote.id).lean())?.versions).toHaveLength(1);
  });

  test("a decline needs its reason; with one the quote ends and cannot be sent again", async () => {
    const { quote, pads, discs } = await requested();
    const { cookie } = await signedIn("admin");
    const decline = (reason: string) =>
      settle(
        declineAction(
          actionArgs(
            postRequest(`/dashboard/manageQuotes/${quote.id}/decline`, { intent: "decline", reason }, { cookie }),
            { id: quote.id },
          ),
        ),
      );
    await expectFieldError(await decline(""), "reason", "Tell the buyer why the request is declined");
    expect((await Quote.findById(quote.id).lean())?.status).toBe("requested");
    expect((await decline("We no longer stock these discs")).status).toBe(302);
    expect((await Quote.findById(quote.id).lean())?.declineReason).toBe("We no longer stock these discs");
    const late = await send(quote.id, versionForm({ pads, discs }, { pads: "12.00", discs: "41.00" }), cookie);
    expect(late.status).toBe(409);
  });

  test("Edit Product keeps a floor for quotes, never above the list, and buyers never see it", async () => {
    const { cookie } = await signedIn("admin");
    const part = await createPart({ priceCents: 2000 });
    const edit = (floor: string) =>
      settle(
        editAction(
          actionArgs(
            postRequest(
              `/dashboard/manageProducts/${part.id}/edit`,
              {
                name: part.name,
                description: part.description,
                img: part.img,
                price: "20",
                minOrderQuantity: String(part.minOrderQuantity),
                partNumber: part.partNumber,
                category: part.category,
                brand: part.brand,
                oeNumbers: "",
                fitment: "",
                volumeBreaks: "",
                "quoteFloors.USD": floor,
              },
              { cookie },
            ),
            { id: part.id },
          ),
        ),
      );
    await expectFieldError(
      await edit("20.01"),
      "quoteFloors.USD",
      "The floor cannot be above the list price of $20.00",
    );
    await expectFieldError(await edit("12,5x"), "quoteFloors.USD", "Floor price must be a price such as 9.80");
    expect((await Part.findById(part.id).lean())?.quoteFloors ?? []).toEqual([]);

    expect((await edit("16.40")).status).toBe(302);
    expect((await Part.findById(part.id).lean())?.quoteFloors).toEqual([{ currency: "USD", priceCents: 1640 }]);
    const entry = await Audit.findOne({ action: "part.edit", targetId: part.id }).lean();
    expect(entry).toMatchObject({ before: { quoteFloorUSD: null }, after: { quoteFloorUSD: "$16.40" } });

    const buyer = await signedIn("customer");
    const seen = await settle(partLoader(loaderArgs(getRequest(`/parts/${part.id}`, buyer), { id: part.id })));
    expect(seen.status).toBe(200);
    const text = await seen.text();
    expect(text).not.toMatch(/quoteFloor|1640/);
  });
});
