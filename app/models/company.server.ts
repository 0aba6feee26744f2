import mongoose, { Schema, Types, type InferSchemaType } from "mongoose";
import { formatAddress, parseLegacyAddress, type PostalAddress } from "~/domain/address";
import { CURRENCY_CODES, currencyOf, type Currency } from "~/domain/money";
import type { TaxProfile } from "~/domain/tax";
import type { PeppolId } from "~/domain/peppol";
import { mayHoldLeitwegId } from "~/domain/leitweg";
import { postalAddressSchema, postalOf } from "./postal-address.server";

/**
 * The company is the customer: its details, tax number, billing address, address book, trade terms
 * (the `account` block) and caps on unpaid orders belong to it, and every user belongs to exactly
 * one (a lone sign-up to a company of one). People are members with a role (kept on the user, read
 * on every request); `ownerCount` is the guard that keeps a company from losing its last owner:
 * every change that takes an owner away decrements it with one conditional update first.
 */
export { COMPANY_ROLES, COMPANY_ROLE_WORDS, type CompanyRole } from "~/domain/company-roles";

const companySchema = new Schema(
  {
    /** The company's name (empty for a company of one whose person never typed one). */
    companyName: { type: String, trim: true, maxlength: 120 },
    /** Lower-case name: the admin's companies list searches by its start. */
    nameKey: { type: String, maxlength: 120 },
    taxId: { type: String, trim: true, maxlength: 30 },
    country: { type: String, trim: true, maxlength: 8 },
    /** The billing address as printed (formatAddress of `billing`; the typed text before it had fields). */
    billingAddress: { type: String, trim: true, maxlength: 800 },
    /** The billing address field by field (domain/address.ts); it prints on documents, never decides tax. */
    billing: { type: postalAddressSchema, default: undefined },
    /** Kept as free text before billing addresses had fields and not read with certainty: an owner confirms it. */
    billingNeedsConfirmation: { type: Boolean },
    /** Its Peppol participant id (domain/peppol.ts): its e-invoices are addressed to it and claim Peppol BIS. */
    peppol: {
      type: new Schema(
        { scheme: { type: String, required: true, maxlength: 4 }, id: { type: String, required: true, maxlength: 50 } },
        { _id: false },
      ),
      default: undefined,
    },
    /** A German public buyer's Leitweg-ID (domain/leitweg.ts): its e-invoices are XRechnung, with it as buyer reference. */
    leitwegId: { type: String, trim: true, maxlength: 46 },
    /** The address book: at most 20 delivery addresses (address-book.server.ts). */
    addresses: {
      type: [
        {
          label: { type: String, trim: true, maxlength: 60 },
          /** The address as printed (formatAddress of `postal`; the typed text before addresses had fields). */
          address: { type: String, required: true, maxlength: 800 },
          /** The address folded (case, spacing) so one conditional update can refuse a duplicate. */
          key: { type: String, maxlength: 800 },
          /** The address field by field (domain/address.ts): its country and region decide the tax. */
          postal: { type: postalAddressSchema, default: undefined },
          /** Kept as free text before addresses had fields and not read with certainty: the buyer confirms it. */
          needsConfirmation: { type: Boolean },
        },
      ],
      default: undefined,
    },
    defaultAddressId: { type: Schema.Types.ObjectId },
    /** The company's own caps on orders awaiting card payment (unset: the shop's defaults). */
    unpaidOrdersCap: { type: Number, min: 0, validate: Number.isInteger },
    unpaidValueCapCents: { type: Number, min: 0, validate: Number.isInteger },
    /**
     * Trade terms set by an admin: net days to pay an order on account (0: card only) and the most
     * that may be open on account. Anything else that describes the customer's trade account
     * (a price group, tax treatment) belongs in this block too.
     */
    account: {
      type: new Schema(
        {
          termsDays: { type: Number, default: 0, min: 0 },
          creditLimitCents: { type: Number, default: 0, min: 0 },
          /**
           * The currency the company buys in: its prices, orders, terms and credit limit (unset: the
           * home currency). Staff set it, or the owner before the first order.
           */
          currency: { type: String, enum: CURRENCY_CODES },
          /** The company's price group (models/price-group.server.ts); unset: list prices. */
          priceGroupId: { type: Schema.Types.ObjectId },
          /** Tax details an admin recorded (domain/tax.ts): where the buyer is taxed and why not. */
          tax: {
            type: new Schema(
              {
                country: { type: String, trim: true, maxlength: 8 },
                state: { type: String, trim: true, maxlength: 2 },
                vatNumber: { type: String, trim: true, maxlength: 30 },
                exemptionCertificate: { type: String, trim: true, maxlength: 60 },
              },
              { _id: false },
            ),
          },
        },
        { _id: false },
      ),
    },
    /** How many members are owners: only ever decremented by a conditional update that keeps one. */
    ownerCount: { type: Number, required: true, default: 1, min: 0 },
  },
  { timestamps: true },
);

companySchema.index({ createdAt: -1, _id: -1 });
companySchema.index({ nameKey: 1 }, { sparse: true });
// How many companies a price group has (a group in use is not deleted).
companySchema.index({ "account.priceGroupId": 1 }, { sparse: true });

companySchema.pre("save", function () {
  this.nameKey = this.companyName ? this.companyName.toLowerCase() : undefined;
});

export type CompanyDoc = InferSchemaType<typeof companySchema> & { _id: Types.ObjectId };

export const Company: mongoose.Model<CompanyDoc> =
  (mongoose.models.Company as mongoose.Model<CompanyDoc>) ?? mongoose.model<CompanyDoc>("Company", companySchema);

export type AccountTerms = { termsDays: number; creditLimitCents: number };

/** What the account says about prices and tax: the price group (or null) and the tax details (or null). */
export type AccountPricing = { priceGroupId: string | null; tax: TaxProfile | null; currency: Currency };

export function accountPricingOf(account: Partial<CompanyDoc["account"]> | null | undefined): AccountPricing {
  const tax = account?.tax;
  return {
    priceGroupId: account?.priceGroupId ? String(account.priceGroupId) : null,
    currency: currencyOf(account?.currency),
    tax: tax?.country
      ? {
          country: tax.country,
          state: tax.state || null,
          vatNumber: tax.vatNumber || null,
          exemptionCertificate: tax.exemptionCertificate || null,
        }
      : null,
  };
}

export type CompanyAddress = {
  id: string;
  label: string;
  address: string;
  postal: PostalAddress;
  needsConfirmation: boolean;
  isDefault: boolean;
};

/** The company's details as screens and documents read them. */
export type CompanyDetails = {
  companyName: string;
  taxId: string;
  country: string;
  /** The billing address as printed: from its fields, or the text kept from before they existed ("" when none). */
  billingAddress: string;
  /** The billing address field by field; null when none is stored with fields. */
  billing: PostalAddress | null;
  /** Kept as text from before and not read with certainty: the company form asks an owner to check it. */
  billingToConfirm: boolean;
  /** Its Peppol participant id, or null. */
  peppol: PeppolId | null;
  /** A German public buyer's Leitweg-ID, or null: its e-invoices are XRechnung. */
  leitwegId: string | null;
};

export type CompanyView = {
  id: string;
  company: CompanyDetails;
  addresses: CompanyAddress[];
  unpaidCaps: { orders: number | null; valueCents: number | null };
  account: AccountTerms;
  /** The account's price group and tax details. */
  pricing: AccountPricing;
  ownerCount: number;
  createdAt: string | null;
};

/** The address book; the chosen default, or the first address when none (or a deleted one) is chosen. */
function addressBookOf(doc: Partial<CompanyDoc>): CompanyAddress[] {
  const entries = doc.addresses ?? [];
  const chosen = doc.defaultAddressId ? String(doc.defaultAddressId) : null;
  const defaultId = entries.some((entry) => String(entry._id) === chosen)
    ? chosen
    : entries[0]
      ? String(entries[0]._id)
      : null;
  return entries.map((entry) => ({
    id: String(entry._id),
    label: entry.label ?? "",
    address: entry.address,
    postal: postalOf(entry.postal) ?? parseLegacyAddress(entry.address).address,
    needsConfirmation: Boolean(entry.needsConfirmation) || !entry.postal,
    isDefault: String(entry._id) === defaultId,
  }));
}

function companyDetailsOf(doc: Partial<CompanyDoc>): CompanyDetails {
  const billing = postalOf(doc.billing);
  return {
    companyName: doc.companyName ?? "",
    taxId: doc.taxId ?? "",
    country: doc.country ?? "",
    billingAddress: billing ? formatAddress(billing) : (doc.billingAddress ?? ""),
    billing,
    billingToConfirm: !billing && Boolean(doc.billingAddress),
    peppol: doc.peppol?.scheme && doc.peppol.id ? { scheme: doc.peppol.scheme, id: doc.peppol.id } : null,
    // Only a German company holds one: a company that moved away from DE keeps it on file, unused.
    leitwegId: doc.leitwegId && mayHoldLeitwegId(doc.country ?? "") ? doc.leitwegId : null,
  };
}

export function toCompanyView(doc: Partial<CompanyDoc> & { _id: Types.ObjectId }): CompanyView {
  return {
    id: doc._id.toString(),
    company: companyDetailsOf(doc),
    addresses: addressBookOf(doc),
    unpaidCaps: { orders: doc.unpaidOrdersCap ?? null, valueCents: doc.unpaidValueCapCents ?? null },
    account: { termsDays: doc.account?.termsDays ?? 0, creditLimitCents: doc.account?.creditLimitCents ?? 0 },
    pricing: accountPricingOf(doc.account),
    ownerCount: doc.ownerCount ?? 0,
    createdAt: doc.createdAt ? new Date(doc.createdAt).toISOString() : null,
  };
}

/** An empty company (the defaults a company of one starts with). */
export const EMPTY_COMPANY = (id: string): CompanyView => toCompanyView({ _id: new Types.ObjectId(id) });

const isObjectId = (id: unknown): id is string => typeof id === "string" && /^[a-f0-9]{24}$/i.test(id);

/**
 * The company with this id, created (empty, with one owner) when it does not exist yet: a user
 * written before companies existed, or one whose company write a crash lost, still gets one.
 */
export async function getOrCreateCompany(companyId: string) {
  const doc =
    (await Company.findById(companyId).lean()) ??
    (await Company.findOneAndUpdate(
      { _id: companyId },
      { $setOnInsert: { ownerCount: 1 } },
      { upsert: true, returnDocument: "after" },
    ).lean());
  return toCompanyView(doc!);
}

export async function getCompany(companyId: string) {
  if (!isObjectId(companyId)) return null;
  const doc = await Company.findById(companyId).lean();
  return doc ? toCompanyView(doc) : null;
}

/** Several companies by id (lists that name each row's company). */
export async function getCompanies(ids: string[]) {
  const valid = [...new Set(ids)].filter(isObjectId);
  if (valid.length === 0) return new Map<string, CompanyView>();
  const docs = await Company.find({ _id: { $in: valid } }).lean();
  return new Map(docs.map((doc) => [doc._id.toString(), toCompanyView(doc)]));
}

/** A new company with the given details (one owner, who is added by the caller). */
export async function createCompany(fields: Partial<Omit<CompanyDoc, "_id">> & { _id?: Types.ObjectId } = {}) {
  const doc = await Company.create({ ownerCount: 1, ...fields });
  return toCompanyView(doc.toObject());
}

/** Sets a company's trade terms. */
export async function setCompanyTerms(companyId: string, terms: AccountTerms) {
  if (!isObjectId(companyId)) return false;
  // Field by field: the same block holds the price group and tax details.
  const result = await Company.updateOne(
    { _id: companyId },
    { $set: { "account.termsDays": terms.termsDays, "account.creditLimitCents": terms.creditLimitCents } },
  );
  return result.matchedCount === 1;
}

/** Sets a company's price group (null: none). */
export async function setCompanyPriceGroup(companyId: string, priceGroupId: string | null) {
  if (!isObjectId(companyId)) return false;
  const update = priceGroupId
    ? { $set: { "account.priceGroupId": priceGroupId } }
    : { $unset: { "account.priceGroupId": "" } };
  const result = await Company.updateOne({ _id: companyId }, update);
  return result.matchedCount === 1;
}

/** Records a company's tax details (null: none recorded). */
export async function setCompanyTaxProfile(companyId: string, tax: TaxProfile | null) {
  if (!isObjectId(companyId)) return false;
  const update = tax ? { $set: { "account.tax": tax } } : { $unset: { "account.tax": "" } };
  const result = await Company.updateOne({ _id: companyId }, update);
  return result.matchedCount === 1;
}

/** How many companies are in a price group (a group in use is not deleted). */
export async function countInPriceGroup(priceGroupId: string) {
  if (!isObjectId(priceGroupId)) return 0;
  return Company.countDocuments({ "account.priceGroupId": priceGroupId });
}

/** Sets (or, with null, clears) a company's own caps on unpaid card orders. */
export async function setCompanyUnpaidCaps(
  companyId: string,
  caps: { orders: number | null; valueCents: number | null },
) {
  if (!isObjectId(companyId)) return null;
  const set: Record<string, number> = {};
  const unset: Record<string, ""> = {};
  if (caps.orders === null) unset.unpaidOrdersCap = "";
  else set.unpaidOrdersCap = caps.orders;
  if (caps.valueCents === null) unset.unpaidValueCapCents = "";
  else set.unpaidValueCapCents = caps.valueCents;
  const doc = await Company.findOneAndUpdate(
    { _id: companyId },
    { ...(Object.keys(set).length ? { $set: set } : {}), ...(Object.keys(unset).length ? { $unset: unset } : {}) },
    { returnDocument: "after", runValidators: true },
  ).lean();
  return doc ? toCompanyView(doc) : null;
}

/**
 * The company's details (My Profile's company form): an absent field is cleared. The billing address
 * is stored field by field with its printed text beside it, which confirms one kept from before.
 */
export async function updateCompanyDetails(
  companyId: string,
  company: { companyName?: string; taxId?: string; country?: string; billing?: PostalAddress | null },
) {
  const set: Record<string, unknown> = {};
  const unset: Record<string, ""> = { billingNeedsConfirmation: "" };
  for (const key of ["companyName", "taxId", "country"] as const) {
    if (company[key]) set[key] = company[key]!;
    else unset[key] = "";
  }
  if (company.billing) {
    set.billing = company.billing;
    set.billingAddress = formatAddress(company.billing);
  } else {
    unset.billing = "";
    unset.billingAddress = "";
  }
  if (company.companyName) set.nameKey = company.companyName.toLowerCase();
  else unset.nameKey = "";
  const result = await Company.updateOne(
    { _id: companyId },
    { ...(Object.keys(set).length ? { $set: set } : {}), $unset: unset },
  );
  return result.matchedCount === 1;
}

/** Newest first, one page at a time; `q` matches the start of the name. */
export async function listCompanies({ page, perPage, q }: { page: number; perPage: number; q?: string }) {
  const filter = q ? { nameKey: { $regex: `^${q.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}` } } : {};
  const [docs, total] = await Promise.all([
    Company.find(filter)
      .sort(q ? { nameKey: 1, _id: 1 } : { createdAt: -1, _id: -1 })
      .skip((page - 1) * perPage)
      .limit(perPage)
      .lean(),
    Company.countDocuments(filter),
  ]);
  return { companies: docs.map(toCompanyView), total };
}

/** Takes an owner away only while another remains; false when it would be the last one. */
export async function takeOwnerSeat(companyId: string) {
  const result = await Company.updateOne({ _id: companyId, ownerCount: { $gte: 2 } }, { $inc: { ownerCount: -1 } });
  return result.modifiedCount === 1;
}

/** Gives an owner seat back (a new owner, or a change that took one and could not finish). */
export async function addOwnerSeat(companyId: string) {
  await Company.updateOne({ _id: companyId }, { $inc: { ownerCount: 1 } });
}

/** Leaving a company of one: its only owner seat goes too (the company stays, with its orders). */
export async function dropLastOwnerSeat(companyId: string) {
  await Company.updateOne({ _id: companyId, ownerCount: { $gte: 1 } }, { $inc: { ownerCount: -1 } });
}

/** Sets (or with null removes) the company's Peppol participant id; false when there is no such company. */
export async function setCompanyPeppolId(companyId: string, peppol: PeppolId | null) {
  if (!isObjectId(companyId)) return false;
  const result = await Company.updateOne(
    { _id: companyId },
    peppol ? { $set: { peppol } } : { $unset: { peppol: "" } },
  );
  return result.matchedCount === 1;
}

/** Sets (or with null removes) a German company's Leitweg-ID; false when there is no such German company. */
export async function setCompanyLeitwegId(companyId: string, leitwegId: string | null) {
  if (!isObjectId(companyId)) return false;
  const result = await Company.updateOne(
    // A removal needs no country; setting one is for a German company only, checked in the same update.
    leitwegId ? { _id: companyId, country: "DE" } : { _id: companyId },
    leitwegId ? { $set: { leitwegId } } : { $unset: { leitwegId: "" } },
  );
  return result.matchedCount === 1;
}
