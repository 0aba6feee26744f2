/**
 * The buyer's quote screens, through their loaders and actions on the local database: a request
 * whose errors land on the row typed (empty rows skipped), another company's quote answering 404,
 * an accounts member who reads the company's quote but cannot answer it (403), and bad input a 400
 * at its field with nothing written.
 */
import { describe, expect, test } from "vitest";
import { Quote } from "~/orders/model/quote-schema.server";
import { requestQuote, sendQuoteVersion } from "~/orders/quotes.server";
import { action as newQuoteAction } from "~/routes/dashboard.quotes_.new";
import { action as quoteAction, loader as quoteLoader } from "~/routes/dashboard.quotes_.$id";
import { loader as quotesLoader } from "~/routes/dashboard.quotes";
import { createPart, createUser, sessionCookieHeader } from "../setup/factories";
import { actionArgs, getRequest, loaderArgs, postRequest, settle } from "../setup/requests";
import { expectFieldError, toastOf } from "./ordering.helpers";

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

async function member(role: "owner" | "buyer" | "accounts", companyId?: string) {
  const user = companyId ? await createUser({ company: { id: companyId, role } }) : await createUser();
  return { user, cookie: await sessionCookieHeader(user.id) };
}

/** A quote of the owner's company, priced once (version 1), as staff would send it. */
async function quotedFor(owner: Awaited<ReturnType<typeof member>>["user"], partNumber: string, partId: string) {
  const asked = await requestQuote(owner, { intent: "request", lines: [{ partNumber, quantity: 200 }] });
  if (!asked.ok) throw new Error(JSON.stringify(asked.errors));
  const staff = await createUser({ role: "admin" });
  const sent = await sendQuoteVersion(staff, asked.quote.id, {
    intent: "send",
    expectedVersions: 0,
    lines: [{ partId, unitPrice: "14.00", leadTimeDays: 3, belowFloor: true }],
    validUntil: day(10),
  });
  if (!sent.ok) throw new Error(JSON.stringify(sent.errors));
  return sent.quote;
}

describe("the buyer's quote screens", () => {
  test("a request: errors on the row typed, nothing written; then asked, with its toast", async () => {
    const { user, cookie } = await member("owner");
    const pads = await createPart({ priceCents: 1250, minOrderQuantity: 100, availableQuantity: 5000 });
    const post = (fields: Record<string, string>) =>
      settle(
        newQuoteAction(actionArgs(postRequest("/dashboard/quotes/new", { intent: "request", ...fields }, { cookie }))),
      );
    const before = await Quote.countDocuments({ userId: user.id });

    // The first row left empty: the minimum is said on the second row, where it was typed.
    await expectFieldError(
      await post({ "lines[1].partNumber": pads.partNumber, "lines[1].quantity": "50", "lines[1].targetPrice": "9.50" }),
      "lines[1].quantity",
      `The minimum order of ${pads.partNumber} is 100 units`,
    );
    await expectFieldError(
      await post({ "lines[0].partNumber": pads.partNumber, "lines[0].quantity": "200", wantedBy: "2000-01-01" }),
      "wantedBy",
      "The delivery date you want cannot be in the past",
    );
    await expectFieldError(await post({ "lines[0].partNumber": pads.partNumber }), "lines[0].quantity", /Required/);
    await expectFieldError(
      await post({
        "lines[0].partNumber": pads.partNumber,
        "lines[0].quantity": "200",
        "lines[0].targetPrice": "lots",
      }),
      "lines[0].targetPrice",
      "Target price must be a price such as 12.50",
    );
    expect(await Quote.countDocuments({ userId: user.id })).toBe(before);

    const asked = await post({
      "lines[1].partNumber": pads.partNumber,
      "lines[1].quantity": "500",
      "lines[1].targetPrice": "9.50",
      wantedBy: day(20),
      note: "For the spring service",
    });
    expect(asked.status).toBe(302);
    const quote = await Quote.findOne({ userId: user.id }).lean();
    expect(asked.headers.get("Location")).toBe(`/dashboard/quotes/${quote!._id}`);
    expect((await toastOf(asked))?.message).toMatch(/^Quote Q-\d+ requested: we answer within a working day$/);
    expect(quote).toMatchObject({ status: "requested", wantedBy: day(20) });
    expect(quote!.lines).toMatchObject([{ partNumber: pads.partNumber, quantity: 500, targetUnitPriceCents: 950 }]);
  });

  test("another company's quote is a 404; accounts read the company's but cannot answer (403); bad input 400", async () => {
    const owner = await member("owner");
    const accounts = await member("accounts", owner.user.companyId!);
    const stranger = await member("owner");
    const part = await createPart({ priceCents: 1500, minOrderQuantity: 10, availableQuantity: 1000 });
    const quote = await quotedFor(owner.user, part.partNumber, part.id);
    const path = `/dashboard/quotes/${quote.id}`;
    const load = (cookie: string) => settle(quoteLoader(loaderArgs(getRequest(path, { cookie }), { id: quote.id })));
    const post = (cookie: string, fields: Record<string, string>) =>
      settle(quoteAction(actionArgs(postRequest(path, fields, { cookie }), { id: quote.id })));
    const unchanged = async () => {
      const stored = await Quote.findById(quote.id).lean();
      expect(stored?.status).toBe("quoted");
      expect(stored?.orderId ?? stored?.accepting).toBeUndefined();
      expect(stored!.messages).toHaveLength(quote.messages.length);
    };

    expect((await load(stranger.cookie)).status).toBe(404);
    expect((await post(stranger.cookie, { intent: "revision", message: "Cheaper?" })).status).toBe(404);
    const list = await (await settle(quotesLoader(loaderArgs(getRequest("/dashboard/quotes", stranger))))).json();
    expect(list.quotes).toEqual([]);

    const read = await load(accounts.cookie);
    expect(read.status).toBe(200);
    expect((await read.json()).accept).toBeNull();
    const refused = await post(accounts.cookie, { intent: "revision", message: "Cheaper?" });
    await expectFieldError(refused, "", /accounts/, 403);
    expect((await post(accounts.cookie, { intent: "accept", version: "1" })).status).toBe(403);
    await unchanged();

    await expectFieldError(
      await post(owner.cookie, { intent: "revision", message: "  " }),
      "message",
      "Tell us what to change",
    );
    await expectFieldError(
      await post(owner.cookie, { intent: "accept", version: "1", phone: "not a phone" }),
      "phone",
      "Provide a valid phone number",
    );
    await unchanged();
  });
});
