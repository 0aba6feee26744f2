/**
 * A trade buyer's company details and address book, kept on the user document. Every change is one
 * atomic update of that document: the size guard ("addresses.19" must not exist) and the default
 * (one field, defaultAddressId) travel in the same update as the change.
 */
import { Types } from "mongoose";
import { User } from "./user.server";

export const ADDRESS_BOOK_LIMIT = 20;

export async function updateCompany(
  userId: string,
  company: { companyName?: string; taxId?: string; country?: string; billingAddress?: string },
) {
  const set: Record<string, string> = {};
  const unset: Record<string, ""> = {};
  for (const key of ["companyName", "taxId", "country", "billingAddress"] as const) {
    if (company[key]) set[key] = company[key]!;
    else unset[key] = "";
  }
  const result = await User.updateOne({ _id: userId }, { ...(Object.keys(set).length ? { $set: set } : {}), $unset: unset });
  return result.matchedCount === 1;
}

const sameAddress = (a: string, b: string) => a.replace(/\s+/g, " ").trim().toLowerCase() === b.replace(/\s+/g, " ").trim().toLowerCase();

/**
 * Adds an address; "full" when the book already holds ADDRESS_BOOK_LIMIT, "duplicate" when the same
 * address is already there. The first address becomes the default.
 */
export async function addAddress(
  userId: string,
  { label, address, makeDefault }: { label?: string; address: string; makeDefault?: boolean },
): Promise<"added" | "full" | "duplicate" | "missing"> {
  const user = await User.findById(userId, { addresses: 1 }).lean();
  if (!user) return "missing";
  if ((user.addresses ?? []).some((entry) => sameAddress(entry.address, address))) return "duplicate";
  const id = new Types.ObjectId();
  const first = !user.addresses?.length;
  const result = await User.updateOne(
    { _id: userId, [`addresses.${ADDRESS_BOOK_LIMIT - 1}`]: { $exists: false } },
    {
      $push: { addresses: { _id: id, label: label || undefined, address } },
      ...(makeDefault || first ? { $set: { defaultAddressId: id } } : {}),
    },
  );
  return result.modifiedCount === 1 ? "added" : "full";
}

export async function editAddress(
  userId: string,
  addressId: string,
  { label, address, makeDefault }: { label?: string; address: string; makeDefault?: boolean },
) {
  const result = await User.updateOne(
    { _id: userId, "addresses._id": addressId },
    {
      $set: {
        "addresses.$.address": address,
        "addresses.$.label": label ?? "",
        ...(makeDefault ? { defaultAddressId: new Types.ObjectId(addressId) } : {}),
      },
    },
  );
  return result.matchedCount === 1;
}

export async function deleteAddress(userId: string, addressId: string) {
  const result = await User.updateOne(
    { _id: userId, "addresses._id": addressId },
    { $pull: { addresses: { _id: new Types.ObjectId(addressId) } } },
  );
  // A deleted default leaves no default (the next order form starts empty until one is chosen).
  await User.updateOne({ _id: userId, defaultAddressId: addressId }, { $unset: { defaultAddressId: "" } });
  return result.matchedCount === 1;
}

export async function setDefaultAddress(userId: string, addressId: string) {
  const result = await User.updateOne(
    { _id: userId, "addresses._id": addressId },
    { $set: { defaultAddressId: new Types.ObjectId(addressId) } },
  );
  return result.matchedCount === 1;
}
