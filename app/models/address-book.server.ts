import { logFailure } from "../../server/request-context";
/**
 * The company's details and address book, kept on the company document (company.server.ts); the
 * functions take the person acting and work on their company. Every change is one atomic update of
 * that document: the size guard ("addresses.19" must not exist), the duplicate guard
 * (each entry's key, on adding and on editing) and the default (one field, defaultAddressId) travel in the same update as the change.
 */
import { Types } from "mongoose";
import { EMPTY_ADDRESS, formatAddress, parseLegacyAddress, type PostalAddress } from "~/domain/address";
import { Company, updateCompanyDetails } from "./company.server";
import { User, companyIdOfUser, type UserView } from "./user.server";

export const ADDRESS_BOOK_LIMIT = 20;

export async function updateCompany(userId: string, company: Parameters<typeof updateCompanyDetails>[1]) {
  const companyId = await companyIdOfUser(userId);
  return companyId ? updateCompanyDetails(companyId, company) : false;
}

/** The same address typed with other capitals, spaces or line breaks has the same key. */
export const addressKey = (address: string) => address.replace(/\s+/g, " ").trim().toLowerCase();

/**
 * Adds an address in one conditional update: refused as "duplicate" when the same address is already
 * in the book, as "full" when the book holds ADDRESS_BOOK_LIMIT. With no default chosen, the first
 * address of the book is the default (see toUserView).
 */
export async function addAddress(
  userId: string,
  { label, postal, makeDefault }: { label?: string; postal: PostalAddress; makeDefault?: boolean },
): Promise<"added" | "full" | "duplicate" | "missing"> {
  const companyId = await companyIdOfUser(userId);
  if (!companyId) return "missing";
  const address = formatAddress(postal);
  const key = addressKey(address);
  const id = new Types.ObjectId();
  const pushed = await Company.updateOne(
    { _id: companyId, "addresses.key": { $ne: key }, [`addresses.${ADDRESS_BOOK_LIMIT - 1}`]: { $exists: false } },
    {
      $push: { addresses: { _id: id, label: label || undefined, address, key, postal } },
      ...(makeDefault ? { $set: { defaultAddressId: id } } : {}),
    },
  );
  if (pushed.modifiedCount !== 1) {
    const company = await Company.findById(companyId, { addresses: 1 }).lean();
    if (!company) return "missing";
    return (company.addresses ?? []).some((entry) => addressKey(entry.address) === key) ? "duplicate" : "full";
  }
  return "added";
}

/**
 * After an order with "Save to my address book" ticked: the delivery address joins the book if it is
 * new (one conditional update, see addAddress), and the phone becomes the profile's phone if it has none.
 */
export async function saveDeliveryToProfile(
  userId: string,
  { phone, delivery }: { phone: string; delivery: PostalAddress },
) {
  try {
    await addAddress(userId, { postal: delivery });
    await User.updateOne(
      { _id: userId, $or: [{ number: { $exists: false } }, { number: "" }, { number: null }] },
      { $set: { number: phone } },
    );
  } catch (error) {
    // The order is placed already: a failure here must not make it look failed to the buyer.
    logFailure(`Saving the delivery address of user ${userId} to the address book failed (the order stands)`, error);
  }
}

/**
 * An order placed to a saved address flagged for confirmation (kept as free text before addresses had
 * fields) confirms it: the entry takes the fields the buyer checked, in one conditional update.
 */
export async function confirmSavedAddress(userId: string, addressId: string, postal: PostalAddress) {
  const companyId = await companyIdOfUser(userId);
  if (!companyId || !Types.ObjectId.isValid(addressId)) return false;
  const address = formatAddress(postal);
  const id = new Types.ObjectId(addressId);
  const company = await Company.findById(companyId, { addresses: 1 }).lean();
  const entry = company?.addresses?.find((item) => item._id.equals(id));
  if (!entry || (entry.postal && !entry.needsConfirmation)) return false;
  // The entry by its id (the positional operator follows it): an entry with fields already is left alone above.
  const result = await Company.updateOne(
    { _id: companyId, "addresses._id": id },
    {
      $set: {
        "addresses.$.postal": postal,
        "addresses.$.address": address,
        "addresses.$.key": addressKey(address),
        "addresses.$.needsConfirmation": false,
      },
    },
  );
  return result.modifiedCount === 1;
}

/**
 * What an order form starts with: the chosen saved address (`?deliverTo=id`), else the default one,
 * else the profile's address (read into fields where certain); the profile's phone; the other saved
 * addresses to choose from; and, for an address not confirmed yet, its text as it was typed.
 */
export function deliveryDefaults(user: UserView, chosenId?: string | null) {
  const chosen =
    user.addresses.find((entry) => entry.id === chosenId) ?? user.addresses.find((entry) => entry.isDefault);
  const fromProfile = chosen ? null : user.address ? parseLegacyAddress(user.address) : null;
  return {
    phone: user.number,
    delivery: chosen?.postal ?? fromProfile?.address ?? EMPTY_ADDRESS,
    confirmAddress: chosen?.needsConfirmation
      ? chosen.address
      : fromProfile && !fromProfile.certain
        ? user.address
        : null,
    addressId: chosen?.id ?? null,
    saved: user.addresses.map(({ id, label, address }) => ({ id, label, address })),
  };
}

/**
 * Changes a saved address in one conditional update: refused as "duplicate" when the new text is the
 * same address as another entry of the book (the entry itself may keep its own, say to rename it).
 */
export async function editAddress(
  userId: string,
  addressId: string,
  { label, postal, makeDefault }: { label?: string; postal: PostalAddress; makeDefault?: boolean },
): Promise<"saved" | "duplicate" | "missing"> {
  const companyId = await companyIdOfUser(userId);
  if (!companyId) return "missing";
  const id = new Types.ObjectId(addressId);
  const address = formatAddress(postal);
  const key = addressKey(address);
  const result = await Company.updateOne(
    // The guard is a negation ($nor), so "$" below still points at the entry matched by its id.
    { _id: companyId, "addresses._id": id, $nor: [{ addresses: { $elemMatch: { key, _id: { $ne: id } } } }] },
    {
      $set: {
        "addresses.$.address": address,
        "addresses.$.key": key,
        "addresses.$.postal": postal,
        "addresses.$.needsConfirmation": false,
        "addresses.$.label": label ?? "",
        ...(makeDefault ? { defaultAddressId: id } : {}),
      },
    },
  );
  if (result.matchedCount === 1) return "saved";
  const company = await Company.findOne({ _id: companyId, "addresses._id": id }, { _id: 1 }).lean();
  return company ? "duplicate" : "missing";
}

export async function deleteAddress(userId: string, addressId: string) {
  // A deleted default leaves defaultAddressId pointing at nothing: the first address is then the default.
  const companyId = await companyIdOfUser(userId);
  if (!companyId) return false;
  const result = await Company.updateOne(
    { _id: companyId, "addresses._id": addressId },
    { $pull: { addresses: { _id: new Types.ObjectId(addressId) } } },
  );
  return result.matchedCount === 1;
}

export async function setDefaultAddress(userId: string, addressId: string) {
  const companyId = await companyIdOfUser(userId);
  if (!companyId) return false;
  const result = await Company.updateOne(
    { _id: companyId, "addresses._id": addressId },
    { $set: { defaultAddressId: new Types.ObjectId(addressId) } },
  );
  return result.matchedCount === 1;
}
