/**
 * The demo data, added on first start on the local database (and by `npm run seed`): what is missing
 * is written from content.server.ts, then the demo's orders (orders.server.ts), its
 * warehouse (backorders, returns, credit notes: warehouse.server.ts; a restock that fills a backorder:
 * restock.server.ts), quotes (quotes.server.ts), webhooks and failed mail.
 */
import { ensureDemoAccountMoney } from "./credit.server";
import { postLedgerLeft } from "~/orders/ledger.server";
import { formatAddress } from "~/domain/address";
import { addressKey } from "~/models/address-book.server";
import { countLiveKeys, createApiKey } from "~/models/api-key.server";
import { catalogueKeys } from "~/domain/part-search-keys";
import { Part } from "~/models/part.server";
import { Review } from "~/models/review.server";
import { Company } from "~/models/company.server";
import { User } from "~/models/user.server";
import { PriceGroup } from "~/models/price-group.server";
import { parseBreaks } from "~/domain/pricing";
import { ensureDemoFailedMail } from "~/services/failed-mail.server";
import { ensureDemoWebhooks } from "./webhooks.server";
import { ensureDemoPublicBuyer } from "./public-buyer.server";
import { ensureDemoExchangeRates } from "./exchange-rates.server";
import { Order } from "~/orders/model/schema.server";
import { toOrderView } from "~/orders/model/view.server";
import { hashPassword } from "~/services/password.server";
import { ensureDemoReturns, ensureDemoWarehouse } from "./warehouse.server";
import { ensureDemoRestock } from "./restock.server";
import { ensureDemoSavedLists } from "./saved-lists.server";
import { ensureDemoQuotes } from "./quotes.server";
import {
  DEMO_ACCOUNTS,
  DEMO_PRICE_LISTS,
  DEMO_BREAKS,
  DEMO_PARTS,
  DEMO_PRICE_GROUP,
  DEMO_REVIEWS,
  DEMO_TRADE,
  DEMO_USERS,
  NORTHSIDE_DOCK,
  NORTHSIDE_YARD_TEXT,
  demoCatalogue,
} from "./content.server";
import { ensureDemoApproved } from "./approvals.server";
import { ensureSterlingDemoOrders } from "./sterling.server";
import { createDemoOrders, ensureDemoApproval, ensureDemoBankTransferOrder, ensureEuDemoOrder } from "./orders.server";

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
        ...(trade.peppol ? { peppol: trade.peppol } : {}),
        account: {
          termsDays: 0,
          creditLimitCents: 0,
          ...(trade.inGroup ? { priceGroupId: group._id } : {}),
          ...(trade.currency ? { currency: trade.currency } : {}),
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
    const prices = demoPriceLists(partNumber);
    if (existing) {
      // Demo parts stored before price lists per currency get theirs.
      await Part.updateOne({ _id: existing._id, prices: { $exists: false } }, { $set: { prices } });
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
      prices,
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
  await ensureDemoExchangeRates(now);
  await ensureEuDemoOrder(now);
  await ensureSterlingDemoOrders(now, DEMO_USERS[0].email);
  await ensureDemoPublicBuyer(now);
  // Before the trade company's webhook endpoint exists: the demo's deliveries stay the two it shows.
  await ensureDemoApproved();
  await ensureDemoQuotes();

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
  await ensureDemoRestock(now, DEMO_USERS[1].email, DEMO_USERS[0].email);
  await ensureDemoSavedLists();
  await ensureDemoAccountMoney(now, DEMO_USERS[1].email, DEMO_USERS[2].email, DEMO_USERS[0].email);
  // The money of every demo order in the ledger now (the statement reads it on first start).
  await postLedgerLeft();
  // A company member is printed with their role in the company (the demo.sh and seed listings).
  return DEMO_USERS.map(({ email, password, role, companyRole, note }) => ({
    email,
    password,
    role: companyRole && companyRole !== "owner" ? companyRole : role,
    note: note ?? null,
  }));
}

/** A demo part's lists in euros and pounds, read as Edit Product reads them (a bad one stops the start). */
function demoPriceLists(partNumber: string) {
  return Object.entries(DEMO_PRICE_LISTS[partNumber] ?? {}).map(([currency, { price, breaks }]) => {
    const priceCents = Math.round(price * 100);
    const parsed = breaks ? parseBreaks(breaks, priceCents) : null;
    if (parsed && !parsed.ok) throw new Error(`Demo ${currency} breaks of ${partNumber}: ${parsed.message}`);
    return { currency, priceCents, ...(parsed?.ok ? { volumeBreaks: parsed.breaks } : {}) };
  });
}
