import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";
import { lineProblem, MAX_ORDER_LINES, type LineProblem, backorderSplit, backorderText } from "~/domain/order-lines";
import { formatQuantity } from "~/format";
import { isDuplicateKeyError } from "./user.server";
import type { PartView } from "~/domain/catalogue";
import type { Currency } from "~/domain/money";
import { inCurrency, noPriceIn } from "~/domain/pricing";
import { getPartsByIds, isObjectId } from "./part.server";

/**
 * A signed-in customer's cart: one document per customer with its lines (part and quantity; the
 * price is always today's, read from the part). Every change is a read, then one write that
 * applies only while the cart is still at the version read (optimistic concurrency), so two tabs
 * changing the cart at once never lose a change; the loser reads again and retries.
 */
const cartLineSchema = new Schema(
  {
    partId: { type: Schema.Types.ObjectId, required: true },
    quantity: { type: Number, required: true, min: 1 },
  },
  { _id: false },
);

/** Where a cart's notices come from: a past order put back (reorder) or the quick-order pad. */
export const NOTICE_SOURCES = ["reorder", "pad"] as const;
export type NoticeSource = (typeof NOTICE_SOURCES)[number];

const cartSchema = new Schema(
  {
    userId: { type: Schema.Types.ObjectId, required: true },
    lines: { type: [cartLineSchema], default: [] },
    /** What the last bulk change (a reorder, the quick-order pad) could not do as asked, said plainly. */
    notices: { type: [String], default: [] },
    /** Which bulk change said them (the cart heads them accordingly). */
    noticesFrom: { type: String, enum: NOTICE_SOURCES },
    version: { type: Number, required: true, default: 0 },
    /** The past order a reorder filled the cart from; the order placed from this cart says so. */
    reorderedFrom: { type: Schema.Types.ObjectId },
    /**
     * The order being placed from this cart: the lines stay until that order exists (then they go
     * in one update), so a checkout that dies half way never empties a cart for nothing.
     */
    checkout: {
      type: new Schema(
        { orderId: { type: Schema.Types.ObjectId, required: true }, at: { type: Date, required: true } },
        { _id: false },
      ),
    },
  },
  { timestamps: true },
);

cartSchema.index({ userId: 1 }, { unique: true });

export type CartDoc = InferSchemaType<typeof cartSchema> & { _id: Types.ObjectId };

export const Cart: mongoose.Model<CartDoc> =
  (mongoose.models.Cart as mongoose.Model<CartDoc>) ?? mongoose.model<CartDoc>("Cart", cartSchema);

export type CartLine = { partId: string; quantity: number };

async function readCart(userId: string) {
  const doc = await Cart.findOne({ userId }).lean();
  return {
    exists: Boolean(doc),
    version: doc?.version ?? 0,
    lines: (doc?.lines ?? []).map((line) => ({ partId: line.partId.toString(), quantity: line.quantity })),
    notices: doc?.notices ?? [],
    noticesFrom: (doc?.noticesFrom ?? null) as NoticeSource | null,
    reorderedFrom: doc?.reorderedFrom ? doc.reorderedFrom.toString() : null,
  };
}

/**
 * `reorderedFrom`: a string sets it, null clears it, absent keeps it (an emptied cart always clears it).
 * `notices` replace the cart's, said by `noticesFrom`.
 */
export type CartChange<T> =
  | {
      lines: CartLine[];
      notices?: string[];
      noticesFrom?: NoticeSource;
      reorderedFrom?: string | null;
      result: T;
    }
  | { error: T };

/**
 * Applies `change` to the cart's current lines and stores the outcome, unless the cart changed in
 * between (then it reads again and retries). `change` may refuse ({ error }) and nothing is written.
 * A change without notices clears the previous ones.
 */
export async function changeCart<T>(
  userId: string,
  change: (lines: CartLine[], cart: { reorderedFrom: string | null }) => Promise<CartChange<T>> | CartChange<T>,
): Promise<{ ok: true; result: T } | { ok: false; error: T }> {
  if (!isObjectId(userId)) throw new Error("Not a user id");
  for (let attempt = 0; attempt < 8; attempt++) {
    const cart = await readCart(userId);
    const outcome = await change(cart.lines, cart);
    if ("error" in outcome) return { ok: false, error: outcome.error };
    const notices = outcome.notices ?? [];
    const set: Record<string, unknown> = { lines: outcome.lines, notices, version: cart.version + 1 };
    const unset: Record<string, ""> = {};
    if (notices.length && outcome.noticesFrom) set.noticesFrom = outcome.noticesFrom;
    else unset.noticesFrom = "";
    const clearSource = outcome.lines.length === 0 || outcome.reorderedFrom === null;
    if (!clearSource && outcome.reorderedFrom) set.reorderedFrom = outcome.reorderedFrom;
    if (clearSource) unset.reorderedFrom = "";
    const update = Object.keys(unset).length ? { $set: set, $unset: unset } : { $set: set };
    try {
      const written = cart.exists
        ? await Cart.updateOne({ userId, version: cart.version }, update)
        : await Cart.updateOne({ userId, version: cart.version }, update, { upsert: true });
      if (written.modifiedCount + written.upsertedCount === 1) return { ok: true, result: outcome.result };
    } catch (error) {
      // Two first changes at once: both upserted, the unique userId kept one. Read again.
      if (!isDuplicateKeyError(error)) throw error;
    }
  }
  throw new Error("The cart kept changing; try again");
}

export type CartLineView = {
  partId: string;
  quantity: number;
  part: Pick<PartView, "name" | "partNumber" | "img" | "priceCents" | "minOrderQuantity" | "availableQuantity"> | null;
  /** Today's price x quantity (0 when the part is gone). */
  lineTotalCents: number;
  problem: LineProblem | null;
  /** "300 now, 200 on backorder, expected …" when the shelf lacks some of it (parts that may be backordered). */
  backorder: string | null;
};

export type CartView = {
  lines: CartLineView[];
  totalCents: number;
  totalQuantity: number;
  notices: string[];
  /** Which bulk change said the notices (null for notices kept from before it was recorded). */
  noticesFrom: NoticeSource | null;
  ok: boolean;
};

/** The cart as the screen shows it: each line with today's part, price and problem, and the total. */
export async function getCart(userId: string): Promise<CartView> {
  if (!isObjectId(userId)) {
    return { lines: [], totalCents: 0, totalQuantity: 0, notices: [], noticesFrom: null, ok: false };
  }
  const cart = await readCart(userId);
  const parts = await getPartsByIds(cart.lines.map((line) => line.partId));
  const lines = cart.lines.map((line) => {
    const part = parts.get(line.partId) ?? null;
    return {
      partId: line.partId,
      quantity: line.quantity,
      part: part && {
        name: part.name,
        partNumber: part.partNumber,
        img: part.img,
        priceCents: part.priceCents,
        minOrderQuantity: part.minOrderQuantity,
        availableQuantity: part.availableQuantity,
      },
      lineTotalCents: part ? part.priceCents * line.quantity : 0,
      problem: lineProblem(part, line.quantity),
      backorder: part ? backorderText(backorderSplit(part, line.quantity)) : null,
    };
  });
  return {
    lines,
    totalCents: lines.reduce((sum, line) => sum + line.lineTotalCents, 0),
    totalQuantity: lines.reduce((sum, line) => sum + line.quantity, 0),
    notices: cart.notices,
    noticesFrom: cart.notices.length ? cart.noticesFrom : null,
    ok: lines.length > 0 && lines.every((line) => !line.problem),
  };
}

/** How many lines the customer's cart has (for the navigation). */
export async function countCartLines(userId: string) {
  if (!isObjectId(userId)) return 0;
  const doc = await Cart.findOne({ userId }, { lines: 1 }).lean();
  return doc?.lines.length ?? 0;
}

/**
 * Adds `quantity` of a part (to the line already there, if any), checked against the part now and,
 * given the buyer's currency, against its price lists: a part not sold in it does not go in.
 */
export function addToCart(userId: string, partId: string, quantity: number, currency?: Currency) {
  return changeCart<string>(userId, async (lines) => {
    const part = (await getPartsByIds([partId])).get(partId);
    if (part && currency && !inCurrency(part, currency)) return { error: noPriceIn(part.partNumber, currency) };
    const existing = lines.find((line) => line.partId === partId);
    const total = (existing?.quantity ?? 0) + quantity;
    const problem = lineProblem(part, total);
    if (problem) {
      const already = existing ? ` (${formatQuantity(existing.quantity)} already in your cart)` : "";
      return { error: `${problem.message}${already}` };
    }
    if (!existing && lines.length >= MAX_ORDER_LINES) return { error: `A cart holds at most ${MAX_ORDER_LINES} lines` };
    const next = existing
      ? lines.map((line) => (line.partId === partId ? { ...line, quantity: total } : line))
      : [...lines, { partId, quantity }];
    return { lines: next, result: part!.name };
  });
}

/** Sets a line's quantity, checked against the part now. */
export function setCartQuantity(userId: string, partId: string, quantity: number) {
  return changeCart<string>(userId, async (lines) => {
    if (!lines.some((line) => line.partId === partId)) return { error: "That part is not in your cart (any more)" };
    const part = (await getPartsByIds([partId])).get(partId);
    const problem = lineProblem(part, quantity);
    if (problem) return { error: problem.message };
    return { lines: lines.map((line) => (line.partId === partId ? { ...line, quantity } : line)), result: part!.name };
  });
}

/** Takes a line out of the cart. */
export function removeFromCart(userId: string, partId: string) {
  return changeCart<string>(userId, (lines) => {
    if (!lines.some((line) => line.partId === partId)) return { error: "That part is not in your cart (any more)" };
    return { lines: lines.filter((line) => line.partId !== partId), result: partId };
  });
}

/**
 * Adds several lines at once (the quick-order pad, a reorder): each merges into the line already
 * there. Lines are checked by the caller; `notices` say what was changed on the way, and `from`
 * which change it was. Refused (nothing written) past MAX_ORDER_LINES lines.
 */
export function addLinesToCart(
  userId: string,
  added: CartLine[],
  {
    notices = [],
    from,
    reorderedFrom,
  }: { notices?: string[]; from?: NoticeSource; reorderedFrom?: string | null } = {},
) {
  return changeCart<number>(userId, (lines) => {
    const next = lines.map((line) => ({ ...line }));
    for (const line of added) {
      const existing = next.find((item) => item.partId === line.partId);
      if (existing) existing.quantity += line.quantity;
      else next.push({ ...line });
    }
    if (next.length > MAX_ORDER_LINES) return { error: 0 };
    return {
      lines: next,
      notices,
      noticesFrom: from,
      ...(reorderedFrom ? { reorderedFrom } : {}),
      result: added.length,
    };
  });
}

/** Says on the cart why a bulk change put nothing into it (its lines stay as they are). */
export function noteOnCart(userId: string, notices: string[], from: NoticeSource) {
  return changeCart<number>(userId, (lines) => ({ lines, notices, noticesFrom: from, result: 0 }));
}

/**
 * Claims the cart for the order `orderId`, only while it is still exactly `expected` (what was
 * checked) and no other checkout of it is under way (a claim older than `staleMs` is one a crash
 * left): a double submit cannot order it twice. The lines stay until the order exists
 * (emptyCheckedOutCart). Returns null when the cart changed or is being checked out, else the past
 * order the cart was reordered from (or no order).
 */
export async function claimCartForCheckout(userId: string, expected: CartLine[], orderId: string, staleMs: number) {
  if (!isObjectId(userId)) return null;
  const cart = await readCart(userId);
  const same =
    cart.lines.length === expected.length &&
    cart.lines.every((line, i) => line.partId === expected[i].partId && line.quantity === expected[i].quantity);
  if (!same) return null;
  const now = new Date();
  const claimed = await Cart.updateOne(
    {
      userId,
      version: cart.version,
      $or: [
        { checkout: { $exists: false } },
        { checkout: null },
        { "checkout.at": { $lt: new Date(now.getTime() - staleMs) } },
      ],
    },
    { $set: { checkout: { orderId, at: now } }, $inc: { version: 1 } },
  );
  return claimed.modifiedCount === 1 ? { reorderedFrom: cart.reorderedFrom } : null;
}

/** The order placed from the cart exists: its lines go, in one update, only under that order's claim. */
export async function emptyCheckedOutCart(userId: string, orderId: string) {
  await Cart.updateOne(
    { userId, "checkout.orderId": orderId },
    {
      $set: { lines: [], notices: [] },
      $unset: { checkout: "", reorderedFrom: "", noticesFrom: "" },
      $inc: { version: 1 },
    },
  );
}

/** True while the cart is claimed for this order (a claim a crash left is dropped by the stock sweep). */
export async function cartClaimedFor(userId: string, orderId: string) {
  return Boolean(await Cart.exists({ userId, "checkout.orderId": orderId }));
}

/** Carts claimed for a checkout longer ago than `before`: the sweep looks at what became of each. */
export async function listStaleCheckoutClaims(before: Date, limit = 200) {
  const docs = await Cart.find({ "checkout.at": { $lte: before } }, { userId: 1, checkout: 1 })
    .limit(limit)
    .lean();
  return docs.flatMap((doc) =>
    doc.checkout ? [{ userId: doc.userId.toString(), orderId: doc.checkout.orderId.toString() }] : [],
  );
}

/** The order was not placed: the cart keeps its lines and can be checked out again. */
export async function dropCheckoutClaim(userId: string, orderId: string) {
  await Cart.updateOne({ userId, "checkout.orderId": orderId }, { $unset: { checkout: "" }, $inc: { version: 1 } });
}
