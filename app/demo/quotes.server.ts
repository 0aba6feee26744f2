/**
 * The demo's quotes, all the trade company's, made through the quote services (so their mail, audit
 * entries and order are what real ones leave): one accepted with its order, one priced and revised
 * that its owner can accept on first start, one expired and one waiting for the shop's answer. The
 * quote floors of a few parts are set first, as staff would on Edit Product.
 */
import { Part } from "~/models/part.server";
import { getUserByEmail, type UserView } from "~/models/user.server";
import { Quote } from "~/orders/model/quote-schema.server";
import { expireQuoteNow } from "~/orders/quote-jobs.server";
import { acceptQuote, askForRevision, requestQuote, sendQuoteVersion } from "~/orders/quotes.server";
import type { QuoteRequestValue } from "~/forms/quote-forms";
import { DEMO_QUOTE_FLOORS, DEMO_TRADE, NORTHSIDE_DOCK } from "./content.server";

const DAY_MS = 24 * 60 * 60 * 1000;
const day = (offset: number, now = Date.now()) => new Date(now + offset * DAY_MS).toISOString().slice(0, 10);

/** Parts stored before quote floors existed get theirs; a floor staff changed since is kept. */
async function ensureDemoQuoteFloors() {
  for (const [partNumber, floors] of Object.entries(DEMO_QUOTE_FLOORS)) {
    const quoteFloors = Object.entries(floors).map(([currency, priceCents]) => ({ currency, priceCents }));
    await Part.updateOne({ partNumber, quoteFloors: { $exists: false } }, { $set: { quoteFloors } });
  }
}

async function partIds(numbers: string[]) {
  const parts = await Part.find({ partNumber: { $in: numbers } }, { partNumber: 1 }).lean();
  return new Map(parts.map((part) => [part.partNumber, String(part._id)]));
}

/** A request that must be written: a demo the services refuse is a broken demo, said at start. */
async function asked(owner: UserView, value: Omit<QuoteRequestValue, "intent">) {
  const outcome = await requestQuote(owner, { intent: "request", ...value });
  if (!outcome.ok) throw new Error(`The demo's quote request was refused: ${JSON.stringify(outcome.errors)}`);
  return outcome.quote;
}

type Staff = { id: string; email: string; name: string };

async function sent(
  staff: Staff,
  quoteId: string,
  expectedVersions: number,
  prices: Record<string, [unitPrice: string, leadTimeDays: number]>,
  extra: { validUntil: string; terms?: string; note?: string; partialAllowed?: boolean },
) {
  const ids = await partIds(Object.keys(prices));
  const outcome = await sendQuoteVersion(staff, quoteId, {
    intent: "send",
    expectedVersions,
    lines: Object.entries(prices).map(([number, [unitPrice, leadTimeDays]]) => ({
      partId: ids.get(number)!,
      unitPrice,
      leadTimeDays,
    })),
    ...extra,
  });
  if (!outcome.ok) throw new Error(`The demo's quote version was refused: ${JSON.stringify(outcome.errors)}`);
  return outcome.quote;
}

const TERMS = "Net 30 on account. Delivered to your dock, freight included.";

/** Added once, also to a demo database made before quotes existed. */
export async function ensureDemoQuotes() {
  await ensureDemoQuoteFloors();
  const [owner, admin] = await Promise.all([getUserByEmail(DEMO_TRADE.email), getUserByEmail("admin@partsworks.test")]);
  if (!owner?.companyId || !admin) return;
  if (await Quote.exists({ companyId: owner.companyId })) return;
  const staff = { id: admin.id, email: admin.email, name: admin.name };

  // Expired: valid until today, and the expiry run of tomorrow ended it.
  const wipers = await asked(owner, { lines: [{ partNumber: "PW-1011", quantity: 1000, targetPrice: "10.00" }] });
  await sent(staff, wipers.id, 0, { "PW-1011": ["10.50", 0] }, { validUntil: day(0), terms: TERMS });
  await expireQuoteNow(wipers.id, new Date(Date.now() + DAY_MS));

  // Accepted: ordered on account at the quoted prices, through checkout.
  const filters = await asked(owner, {
    lines: [
      { partNumber: "PW-1003", quantity: 1000, targetPrice: "6.00" },
      { partNumber: "PW-1004", quantity: 200 },
    ],
    note: "Filters for the fleet's winter service.",
  });
  const priced = await sent(
    staff,
    filters.id,
    0,
    { "PW-1003": ["6.20", 0], "PW-1004": ["10.20", 0] },
    { validUntil: day(30), terms: TERMS },
  );
  const placed = await acceptQuote(owner, priced.id, {
    intent: "accept",
    version: 1,
    phone: "+1 313 555 0142",
    delivery: NORTHSIDE_DOCK,
    poNumber: "NFG-4460",
    payment: "account",
  });
  if (!placed.ok) throw new Error(`The demo's quote could not be accepted: ${JSON.stringify(placed)}`);

  // Quoted, in its second version after a revision: the owner accepts it on first start.
  const plugs = await asked(owner, {
    lines: [
      { partNumber: "PW-1005", quantity: 2000, targetPrice: "7.00" },
      { partNumber: "PW-1012", quantity: 300 },
    ],
    wantedBy: day(21),
    note: "Spark plugs and bulbs for the spring tune-ups.",
  });
  await sent(
    staff,
    plugs.id,
    0,
    { "PW-1005": ["7.60", 0], "PW-1012": ["17.50", 5] },
    { validUntil: day(14), terms: TERMS },
  );
  const revised = await askForRevision(owner, plugs.id, "Can you do 7.20 on the plugs if we take all 2,000?");
  if (!revised.ok) throw new Error(`The demo's revision was refused: ${JSON.stringify(revised.errors)}`);
  await sent(
    staff,
    plugs.id,
    1,
    { "PW-1005": ["7.20", 0], "PW-1012": ["17.20", 5] },
    {
      validUntil: day(30),
      terms: TERMS,
      note: "7.20 on the plugs for the full 2,000. The bulbs may be ordered on their own.",
      partialAllowed: true,
    },
  );

  // Waiting for the shop's answer.
  await asked(owner, {
    lines: [
      { partNumber: "PW-1007", quantity: 100 },
      { partNumber: "PW-1008", quantity: 100 },
    ],
    wantedBy: day(35),
    note: "Timing belts and water pumps for eight vans: what lead time can you do?",
  });
}
