/**
 * The stored shape of a postal address (domain/address.ts), one sub-document shared by the address
 * book, the company's billing address and the order's delivery address.
 */
import { Schema } from "mongoose";
import type { PostalAddress } from "~/domain/address";

const text = (maxlength: number) => ({ type: String, trim: true, maxlength, default: "" });

export const postalAddressSchema = new Schema(
  {
    name: text(100),
    company: text(100),
    line1: { type: String, trim: true, maxlength: 100, required: true },
    line2: text(100),
    city: { type: String, trim: true, maxlength: 100, required: true },
    region: text(100),
    postalCode: text(100),
    country: { type: String, trim: true, required: true, match: /^[A-Z]{2}$/ },
  },
  { _id: false },
);

/** A stored address as the screens read it, or null when none is stored. */
export function postalOf(doc: Partial<PostalAddress> | null | undefined): PostalAddress | null {
  if (!doc?.country || !doc.line1) return null;
  return {
    name: doc.name ?? "",
    company: doc.company ?? "",
    line1: doc.line1,
    line2: doc.line2 ?? "",
    city: doc.city ?? "",
    region: doc.region ?? "",
    postalCode: doc.postalCode ?? "",
    country: doc.country,
  };
}
