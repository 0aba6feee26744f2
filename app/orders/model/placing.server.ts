/**
 * The writes of placing an order: the order written "reserving", confirmed once every line holds its
 * stock, or abandoned. The steps themselves are the checkout workflow's (orders/checkout.server.ts).
 */
import mongoose from "mongoose";
import { lineProblem, MAX_ORDER_LINES, type LineProblem } from "~/domain/order-lines";
import { priceWith, VISITOR_PRICING, type CustomerPricing } from "~/domain/pricing";
import { capRefusal } from "~/domain/order-caps";
import { unpaidCapsOf } from "~/models/unpaid-caps.server";
import { cartClaimedFor, dropCheckoutClaim, emptyCheckedOutCart } from "~/models/cart.server";
import { getPartsByIds, holdStock, isObjectId, releaseHolds, type PartView } from "~/models/part.server";
import { Order, stockSettings, DAY_MS } from "./schema.server";
import { type OrderView, toOrderView } from "./view.server";
import { type CustomerScope, scopeFilter } from "./reads.server";
import { accountCommitmentOf } from "./payments.server";

// --- Ordering and the order life cycle ----------------------------------------------------------
// Every change of status is one conditional update on the current status, so a double submit or a
// race between two admins can never apply a change twice (nor give stock back twice).

export type OrderLineRequest = { partId: string; quantity: number };

export type PlaceOrderInput = {
  lines: OrderLineRequest[];
  phone: string;
  address: string;
  /** The buyer's purchase-order number (optional). */
  poNumber?: string;
  user: { id: string; email: string; name: string; companyName?: string | null; companyId?: string | null };
  /** The customer's own past order the lines came from (a reorder through the cart). */
  reorderedFrom?: string | null;
  /** The buyer's price group and tax details (pricing.server.ts); absent: list prices, no tax recorded. */
  pricing?: CustomerPricing;
  /**
   * On account with these net days (the service checked the credit limit, which is checked again
   * here with this order written); else a card order.
   */
  onAccount?: { termsDays: number; creditLimitCents?: number } | null;
  /** The order's id, chosen beforehand (a cart's checkout claims the cart for it). */
  orderId?: string;
  /** The lines come from the customer's cart, claimed for `orderId`: emptied once the order exists. */
  fromCart?: boolean;
  /** Over the buyer's limit per order (this limit): placed to wait for an owner's approval. */
  approvalLimitCents?: number | null;
};

/** A line that could not be ordered: which one (its place in the request) and why. */
export type LineFailure = LineProblem & {
  index: number;
  partId: string;
  partNumber: string | null;
  productName: string | null;
};

/** Not placed: the lines that could not be ordered, or a refusal of the whole order (a cap). */
export type PlaceOrderResult =
  | { ok: true; order: OrderView; belowMinimum: PartView[] }
  | {
      ok: false;
      failures: LineFailure[];
      refusal?: string;
      /** On account, past the credit limit once counted with the orders placed at the same time. */
      overCredit?: { limitCents: number; balanceCents: number; orderCents: number };
    };

/** The same part twice becomes one line with both quantities; the first place is kept. */
function mergeLines(lines: OrderLineRequest[]) {
  const merged = new Map<string, OrderLineRequest & { index: number }>();
  lines.forEach((line, index) => {
    const seen = merged.get(line.partId);
    if (seen) seen.quantity += line.quantity;
    else merged.set(line.partId, { ...line, index });
  });
  return [...merged.values()];
}

function failureOf(
  line: { index: number; partId: string },
  part: PartView | undefined,
  problem: LineProblem,
): LineFailure {
  return {
    ...problem,
    index: line.index,
    partId: line.partId,
    partNumber: part?.partNumber ?? null,
    productName: part?.name ?? null,
  };
}

/** A fresh order id, chosen before the order is written (the cart's checkout claim names it). */
export const newOrderId = () => new mongoose.Types.ObjectId().toString();

/** A cart's checkout claim older than this was left by a crash (its order is the sweep's by then). */
export const checkoutClaimMs = () => stockSettings().reserveMs;

/** The customer's (company's) orders awaiting card payment or approval: how many and their total. */
export async function openCardOrdersOf(scope: CustomerScope, { except }: { except?: string } = {}) {
  const docs = await Order.find(
    {
      ...(scopeFilter(scope) ?? { _id: null }),
      status: { $in: ["reserving", "unpaid", "approval"] },
      paymentMethod: { $ne: "account" },
      ...(except ? { _id: { $ne: except } } : {}),
    },
    { totalCents: 1 },
  ).lean();
  return { count: docs.length, totalCents: docs.reduce((sum, doc) => sum + (doc.totalCents ?? 0), 0) };
}

/**
 * Places an order of one or more lines, all or nothing, in steps that a crash at any point leaves
 * recoverable (no multi-document transaction: the local database has none):
 * 1. every line is checked against the part as it is now (a failure stops here, nothing written);
 * 2. a card order is checked against the customer's caps on unpaid orders (models/unpaid-caps.server.ts);
 * 3. the order is written in the "reserving" state with its lines, and the caps are checked again
 *    with it counted (two checkouts at once cannot both slip under);
 * 4. each line takes its stock with one conditional update that also notes the order's hold on
 *    the part (part.server.ts, holdStock), so what was taken is known, never guessed;
 * 5. the order is confirmed (unpaid, holding its stock until `holdUntil`; or on account), and only
 *    then the cart it came from is emptied.
 * If a line cannot take its stock, the holds taken are given back and the order is dropped. If the
 * process dies in between, the stock sweep (orders/model/holds.server.ts) finishes the order when every
 * line holds its stock, or gives back what was taken, once STOCK_RESERVE_DEADLINE_SECONDS passed.
 * The order keeps a snapshot of each part's number, name and unit price; every total is computed here.
 */
export async function placeOrder({
  lines,
  phone,
  address,
  poNumber,
  user,
  reorderedFrom,
  onAccount,
  orderId,
  fromCart = false,
  pricing = VISITOR_PRICING,
  approvalLimitCents = null,
}: PlaceOrderInput): Promise<PlaceOrderResult> {
  if (lines.length < 1 || lines.length > MAX_ORDER_LINES) {
    throw new Error(`An order has 1 to ${MAX_ORDER_LINES} lines`);
  }
  const merged = mergeLines(lines);
  const parts = await getPartsByIds(merged.map((line) => line.partId));
  const failures = merged.flatMap((line) => {
    const problem = lineProblem(parts.get(line.partId), line.quantity);
    return problem ? [failureOf(line, parts.get(line.partId), problem)] : [];
  });
  const id = orderId ?? newOrderId();
  const dropClaim = () => (fromCart ? dropCheckoutClaim(user.id, id) : Promise.resolve());
  if (failures.length) {
    await dropClaim();
    return { ok: false, failures };
  }

  // Priced here, from the parts just read: the prices and the tax are frozen on the order.
  const priced = priceWith(pricing, parts, merged, address);
  const orderLines = priced.lines.map((line) => {
    const part = parts.get(line.partId)!;
    return {
      partId: part.id,
      partNumber: part.partNumber,
      productName: part.name,
      unitPriceCents: line.unitPriceCents,
      quantity: line.quantity,
      lineTotalCents: line.lineTotalCents,
      listUnitPriceCents: line.listPriceCents,
      priceSource: line.source,
    };
  });
  const { totalCents, netCents, taxCents, taxLines } = priced;
  // Card orders are capped per customer; an order on account is bounded by the credit limit instead.
  const caps = onAccount ? null : await unpaidCapsOf(user.id);
  const overCaps = async (except?: string) =>
    caps
      ? capRefusal(caps, await openCardOrdersOf({ id: user.id, companyId: user.companyId }, { except }), totalCents)
      : null;
  const over = await overCaps();
  if (over) {
    await dropClaim();
    return { ok: false, failures: [], refusal: over };
  }

  const source =
    reorderedFrom && isObjectId(reorderedFrom) ? await Order.findById(reorderedFrom, { number: 1 }).lean() : null;
  const searchKeys = [poNumber, user.companyName].filter(Boolean).map((key) => key!.toLowerCase());
  const placedAt = new Date();
  const fields = {
    _id: id,
    lines: orderLines,
    totalCents,
    netCents,
    taxCents,
    taxLines,
    ...(pricing.tax?.vatNumber ? { buyerVatNumber: pricing.tax.vatNumber } : {}),
    phone,
    address,
    ...(poNumber ? { poNumber } : {}),
    ...(reorderedFrom ? { reorderedFrom, ...(source?.number ? { reorderedFromNumber: source.number } : {}) } : {}),
    userId: user.id,
    ...(user.companyId ? { companyId: user.companyId } : {}),
    placedBy: user.id,
    userEmail: user.email,
    userName: user.name,
    ...(user.companyName ? { companyName: user.companyName } : {}),
    ...(searchKeys.length ? { searchKeys } : {}),
    ...(onAccount
      ? {
          paymentMethod: "account" as const,
          termsDays: onAccount.termsDays,
          dueAt: new Date(placedAt.getTime() + onAccount.termsDays * DAY_MS),
        }
      : { paymentMethod: "card" as const }),
    ...(approvalLimitCents !== null ? { approvalRequired: true, approval: { limitCents: approvalLimitCents } } : {}),
    status: "reserving" as const,
    reserveBy: new Date(placedAt.getTime() + stockSettings().reserveMs),
    createdAt: placedAt,
  };
  // The number comes from the shared counter; should the unique index still refuse one (a counter
  // restored from a backup), the next number is drawn.
  for (let attempt = 1; ; attempt++) {
    try {
      await Order.create(fields);
      break;
    } catch (error) {
      if (attempt >= 5 || !isDuplicateNumber(error)) throw error;
    }
  }
  // Counted again with this order written: of two checkouts racing past the first look, one sees the other.
  const overNow = await overCaps(id);
  if (overNow) {
    await abandonOrder(id, []);
    await dropClaim();
    return { ok: false, failures: [], refusal: overNow };
  }
  if (onAccount?.creditLimitCents !== undefined) {
    const balanceCents = await accountCommitmentOf({ id: user.id, companyId: user.companyId }, { except: id });
    if (balanceCents + totalCents > onAccount.creditLimitCents) {
      await abandonOrder(id, []);
      await dropClaim();
      return {
        ok: false,
        failures: [],
        overCredit: { limitCents: onAccount.creditLimitCents, balanceCents, orderCents: totalCents },
      };
    }
  }

  const held = await Promise.all(merged.map((line) => holdStock(line.partId, id, line.quantity)));
  if (held.some((part) => part === null)) {
    await abandonOrder(id, merged);
    await dropClaim();
    const missed = merged.filter((_, i) => !held[i]);
    const now = await getPartsByIds(missed.map((line) => line.partId));
    return {
      ok: false,
      failures: missed.map((line) => {
        const part = now.get(line.partId);
        // Between the check and the reservation another order took the stock (or an admin changed the part).
        const problem = lineProblem(part, line.quantity) ?? {
          reason: "above-stock" as const,
          message: "Other orders took this stock just now; please try again",
        };
        return failureOf(line, part ?? parts.get(line.partId), problem);
      }),
    };
  }
  const belowMinimum = held.filter(
    (part): part is PartView => part !== null && part.availableQuantity < part.minOrderQuantity,
  );
  // A cart's claim dropped by the sweep (this step outlived the deadline) means the cart was let go: not ordered.
  const claimLost = fromCart && !(await cartClaimedFor(user.id, id));
  const order = claimLost
    ? null
    : await confirmOrder(
        id,
        belowMinimum.map((part) => part.id),
      );
  if (!order) {
    // Only past the deadline: the sweep judged this order abandoned and gave its stock back.
    await abandonOrder(id, merged);
    await dropClaim();
    return {
      ok: false,
      failures: [],
      refusal: "Placing your order took too long; nothing was ordered, please try again",
    };
  }
  if (fromCart) await emptyCheckedOutCart(user.id, id);
  return { ok: true, order, belowMinimum };
}

function isDuplicateNumber(error: unknown) {
  const { code, keyPattern, message } = error as { code?: number; keyPattern?: object; message?: string };
  return code === 11000 && (keyPattern ? "number" in keyPattern : /number/.test(message ?? ""));
}

/**
 * Every line of a reserving order holds its stock: a card order becomes unpaid, holding the stock
 * until ORDER_HOLD_HOURS from now; an order on account is confirmed on account (it does not
 * expire). Null when it is not reserving (any more). A confirmation the placing step or the sweep
 * already made returns the order as it is.
 */
export async function confirmOrder(orderId: string, lowStockPartIds: string[] = []) {
  const current = await Order.findById(orderId, { status: 1, paymentMethod: 1, approvalRequired: 1 }).lean();
  if (current?.status === "reserving") {
    const onAccount = current.paymentMethod === "account";
    // Waiting for approval: held without expiry, and mailed by the approval service, not as placed.
    const waits = Boolean(current.approvalRequired);
    const doc = await Order.findOneAndUpdate(
      { _id: orderId, status: "reserving" },
      {
        $set: {
          status: waits ? "approval" : onAccount ? "account" : "unpaid",
          ...(onAccount || waits ? {} : { holdUntil: new Date(Date.now() + stockSettings().holdMs) }),
          ...(waits ? {} : { mailPending: ["placed"] }),
          ...(lowStockPartIds.length ? { lowStockPartIds } : {}),
        },
        $unset: { reserveBy: "" },
      },
      { returnDocument: "after" },
    ).lean();
    if (doc) return toOrderView(doc);
  }
  const now = await Order.findById(orderId).lean();
  return now && now.status !== "reserving" && now.status !== "failed" ? toOrderView(now) : null;
}

/**
 * An order that never was (a line without stock, a cap, or left by a crash): it is marked failed
 * so that nothing can confirm it any more, the stock its lines hold goes back (each hold once),
 * and then it is deleted. Every step can be run again: the sweep does, for one a crash left.
 */
export async function abandonOrder(orderId: string, lines: { partId: string; quantity: number }[]) {
  const marked = await Order.findOneAndUpdate(
    { _id: orderId, status: { $in: ["reserving", "failed"] } },
    { $set: { status: "failed" } },
    { projection: { _id: 1 } },
  ).lean();
  // Confirmed meanwhile (by the sweep, or the placing step): it keeps its stock.
  if (!marked && (await Order.exists({ _id: orderId }))) return false;
  // A gone order holds nothing: a hold its late placing step took after the sweep dropped it goes back too.
  await releaseHolds(orderId, lines);
  await Order.deleteOne({ _id: orderId, status: "failed" });
  return true;
}
