/**
 * What checkout takes and what it writes: the request, a line that cannot be ordered and why, the
 * result, and the order document as the "write-reserving-order" step writes it (prices and tax frozen).
 */
import { formatAddress, type PostalAddress } from "~/domain/address";
import type { LineProblem } from "~/domain/order-lines";
import type { CreditRefusal } from "~/domain/order-caps";
import type { OrderPaymentMethod } from "~/domain/order-payments";
import type { CustomerPricing, PricedOrder } from "~/domain/pricing";
import { formatCents } from "~/format";
import { placeWords } from "~/domain/tax";
import type { PartView } from "~/domain/catalogue";
import { isObjectId } from "~/models/part.server";
import type { UserView } from "~/models/user.server";
import { DAY_MS, Order, stockSettings } from "./model/schema.server";
import type { OrderView } from "./model/view.server";
import type { Checkout } from "./checkout.server";
import { orderSearchKeys } from "~/orders/model/search-keys.server";

export type OrderLineRequest = { partId: string; quantity: number };

export type PlaceOrderInput = {
  lines: OrderLineRequest[];
  phone: string;
  /** Where the goods go, field by field: its country and region decide the tax. */
  delivery: PostalAddress;
  /** The total with tax the buyer was shown: the order is placed only at that total (the screens check it first). */
  quotedTotalCents?: number;
  /** The buyer's purchase-order number (optional). */
  poNumber?: string;
  user: { id: string; email: string; name: string; companyName?: string | null; companyId?: string | null };
  /** The customer's own past order the lines came from (a reorder through the cart). */
  reorderedFrom?: string | null;
  /** The buyer's price group and tax details (pricing.server.ts); absent: list prices, no tax recorded. */
  pricing?: CustomerPricing;
  /** On account with these net days, within this credit limit (if given); else a card order. */
  onAccount?: { termsDays: number; creditLimitCents?: number } | null;
  /** Not on account: paid by bank transfer against the pro-forma instead of by card. */
  bankTransfer?: boolean;
  /** The order's id, chosen beforehand (the tests; else a new one). */
  orderId?: string;
  /** The lines are the customer's cart as checked: the cart is claimed for the order first, emptied once it exists. */
  fromCart?: boolean;
  /** How the buyer chose to pay: on account is refused without terms (`onAccount` holds them). */
  payment?: OrderPaymentMethod;
  /** After the order: confirm the saved address it went to, or save the delivery to the address book. */
  remember?: { addressId?: string; save?: boolean };
  /** The buyer's limit per order (their price, with tax): over it, the order waits for an owner's approval. */
  spendingLimitCents?: number | null;
  /** The buyer as the screens read them (for the approval mail); read when absent. */
  placer?: UserView;
  /** The quote (and its version) this order accepts: placed at its prices (checkout-quote.server.ts). */
  quote?: { id: string; version: number };
};

/** Said when the total with tax is not the one the buyer was shown (another address, a price changed). */
export function totalChanged(priced: PricedOrder, quotedCents: number) {
  return (
    `For delivery to ${placeWords(priced.taxPlace)} the total with tax is ${formatCents(priced.totalCents, { currency: priced.currency })} ` +
    `(${priced.taxLines.map((line) => line.label).join(", ")}), not ${formatCents(quotedCents, { currency: priced.currency })}. ` +
    "Nothing was ordered: check the total and place the order again."
  );
}

export const TOOK_TOO_LONG = "Placing your order took too long; nothing was ordered, please try again";
export const CART_CHANGED = "Your cart changed just now, or its order is being placed; check it and try again";
export const ACCOUNTS_CANNOT_ORDER =
  "Your role in the company is accounts: you see and pay its orders, and a buyer or an owner places them.";
export const NO_TERMS = "Your account has no payment terms: pay by card, or ask us about an account.";

/** A line that could not be ordered: which one (its place in the request) and why. */
export type LineFailure = LineProblem & {
  index: number;
  partId: string;
  partNumber: string | null;
  productName: string | null;
};

/** Refused by how the buyer pays: on account without terms (400), by an accounts member (403), past the credit limit (409). */
export type PaymentRefusal = { status: 400 | 403 | 409; message: string; credit: CreditRefusal | null };

export type Refusal = {
  ok: false;
  failures: LineFailure[];
  /** A refusal of the whole order (a cap, a total changed, the cart changed), said above the form. */
  refusal?: string;
  /** A refusal of how the buyer pays, said by the payment choice. */
  payment?: PaymentRefusal;
};

/** Not placed: the lines that could not be ordered, or a refusal of the whole order (a cap). */
export type PlaceOrderResult = { ok: true; order: OrderView; belowMinimum: PartView[] } | Refusal;

export type MergedLine = OrderLineRequest & { index: number };

/** The same part twice becomes one line with both quantities; the first place is kept. */
export function mergeLines(lines: OrderLineRequest[]) {
  const merged = new Map<string, MergedLine>();
  lines.forEach((line, index) => {
    const seen = merged.get(line.partId);
    if (seen) seen.quantity += line.quantity;
    else merged.set(line.partId, { ...line, index });
  });
  return [...merged.values()];
}

export function failureOf(line: MergedLine, part: PartView | undefined, problem: LineProblem): LineFailure {
  return {
    ...problem,
    index: line.index,
    partId: line.partId,
    partNumber: part?.partNumber ?? null,
    productName: part?.name ?? null,
  };
}

export async function reorderedFromNumber(reorderedFrom: string | null | undefined) {
  if (!reorderedFrom || !isObjectId(reorderedFrom)) return null;
  return (await Order.findById(reorderedFrom, { number: 1 }).lean())?.number ?? null;
}

/** Over the buyer's limit per order: the order waits for an owner's approval. */
export function orderWaitsForApproval(c: Checkout) {
  const limit = c.input.spendingLimitCents ?? null;
  return limit !== null && c.priced!.totalCents > limit;
}

export function orderFields(c: Checkout, sourceNumber: number | null) {
  const { input, priced } = c;
  const { user, poNumber, onAccount, pricing } = input;
  const reorderedFrom = c.reorderedFrom;
  const searchKeys = orderSearchKeys({ poNumber, companyName: user.companyName, placerName: user.name });
  const limit = input.spendingLimitCents ?? null;
  const placedAt = new Date();
  return {
    _id: c.id,
    lines: priced!.lines.map((line) => {
      const part = c.parts.get(line.partId)!;
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
    }),
    currency: priced!.currency,
    totalCents: priced!.totalCents,
    netCents: priced!.netCents,
    taxCents: priced!.taxCents,
    taxLines: priced!.taxLines,
    ...(pricing?.tax?.vatNumber ? { buyerVatNumber: pricing.tax.vatNumber } : {}),
    phone: input.phone,
    address: formatAddress(input.delivery),
    deliveryAddress: input.delivery,
    ...(poNumber ? { poNumber } : {}),
    ...(reorderedFrom ? { reorderedFrom, ...(sourceNumber ? { reorderedFromNumber: sourceNumber } : {}) } : {}),
    ...(c.quote ? { quoteId: c.quote.id, quoteNumber: c.quote.number, quoteVersion: c.quote.version } : {}),
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
          // An order waiting for approval is due from its approval (orders/model/approvals.server.ts).
          ...(orderWaitsForApproval(c) ? {} : { dueAt: new Date(placedAt.getTime() + onAccount.termsDays * DAY_MS) }),
        }
      : { paymentMethod: input.bankTransfer ? ("bank-transfer" as const) : ("card" as const) }),
    ...(orderWaitsForApproval(c) ? { approvalRequired: true, approval: { limitCents: limit } } : {}),
    status: "reserving" as const,
    reserveBy: new Date(placedAt.getTime() + stockSettings().reserveMs),
    createdAt: placedAt,
  };
}
