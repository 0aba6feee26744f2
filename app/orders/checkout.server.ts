/**
 * Checkout: placing an order is a workflow of named steps, each with its compensation
 * (services/workflow.server.ts), read top to bottom in CHECKOUT below. There is no multi-document
 * transaction (the local database has none): each step is one or a few single-document updates, a
 * failure undoes what ran, last first, and a crash at any point leaves an order "reserving" that
 * the stock sweep takes up with the same steps (finishLeftReserving).
 */
import { logFailure } from "~/services/log.server";
import { parseLegacyAddress } from "~/domain/address";
import { capRefusal, creditMessage, type UnpaidCaps } from "~/domain/order-caps";
import { can } from "~/services/companies.server";
import { expectedRestockDay, lineProblem, MAX_ORDER_LINES } from "~/domain/order-lines";
import { noPriceIn, priceWith, VISITOR_PRICING } from "~/domain/pricing";
import { confirmSavedAddress, saveDeliveryToProfile } from "~/models/address-book.server";
import { cartClaimedFor, claimCartForCheckout, dropCheckoutClaim, emptyCheckedOutCart } from "~/models/cart.server";
import type { PartView } from "~/domain/catalogue";
import { getPartsByIds } from "~/models/part.server";
import { holdStock, partsHeldBy } from "~/models/stock-holds.server";
import { unpaidCapsOf } from "~/models/unpaid-caps.server";
import { getUserById } from "~/models/user.server";
import { defineWorkflow, step, stop, type WorkflowOptions } from "~/services/workflow.server";
import { raiseApprovalNeeded } from "./approvals.server";
import { raiseOrderEvent } from "./events.server";
import { postStep } from "./ledger.server";
import { applyAccountCredit } from "./credit-apply.server";
import { copyBackorders } from "./model/backorders.server";
import { listLeftReserving } from "./model/holds.server";
import { assignInvoiceNumber } from "./model/invoice.server";
import { accountCommitmentOf } from "./model/payments.server";
import {
  abandonOrder,
  checkoutClaimMs,
  confirmOrder,
  newOrderId,
  openCardOrdersOf,
  unconfirmOrder,
  writeReservingOrder,
} from "./model/placing.server";
import type { OrderView } from "./model/view.server";
import {
  type PlaceOrderInput,
  type LineFailure,
  type Refusal,
  type PlaceOrderResult,
  type MergedLine,
  mergeLines,
  failureOf,
  reorderedFromNumber,
  orderFields,
  orderWaitsForApproval,
  totalChanged,
  TOOK_TOO_LONG,
  CART_CHANGED,
  ACCOUNTS_CANNOT_ORDER,
  NO_TERMS,
} from "./checkout-order.server";
import { claimQuote, markQuoteAccepted, priceAtQuote, type QuoteTerms } from "./checkout-quote.server";

/** What the steps share: the request, then what each step found or wrote. */
export type Checkout = {
  input: PlaceOrderInput;
  id: string;
  lines: MergedLine[];
  parts: Map<string, PartView>;
  priced: ReturnType<typeof priceWith> | null;
  caps: UnpaidCaps | null;
  belowMinimum: PartView[];
  order: OrderView | null;
  /** The past order the claimed cart was a reorder of. */
  reorderedFrom: string | null;
  /** A line took less than its quantity from the shelf: the rest waits on backorder. */
  backordered: boolean;
  /** The quote this order accepts, claimed for it: its prices replace the lists'. */
  quote: QuoteTerms | null;
};

const refuse = (fields: Omit<Refusal, "ok" | "failures"> & { failures?: LineFailure[] }, receipt?: unknown) =>
  stop<Refusal>({ ok: false, failures: [], ...fields }, receipt);

const scopeOf = (c: Checkout) => ({ id: c.input.user.id, companyId: c.input.user.companyId });

/** Card orders are capped per customer; one on account is bounded by the credit limit instead. */
async function overCaps(c: Checkout, except?: string) {
  const { totalCents: orderCents, currency } = c.priced!;
  if (c.caps) {
    const refusal = capRefusal(c.caps, await openCardOrdersOf(scopeOf(c), { except, currency }), orderCents);
    return refusal ? refuse({ refusal }) : undefined;
  }
  const limitCents = c.input.onAccount?.creditLimitCents;
  if (limitCents === undefined) return undefined;
  const balanceCents = await accountCommitmentOf(scopeOf(c), { except, currency });
  if (balanceCents + orderCents <= limitCents) return undefined;
  const message = creditMessage({ limitCents, balanceCents, orderCents });
  return refuse({ payment: { status: 409, message, credit: { limitCents, balanceCents, orderCents, message } } });
}

const CHECKOUT = defineWorkflow<Checkout, Refusal>("checkout", [
  step({
    // The cart is claimed for this order, only while it holds the lines checked (a double submit
    // cannot order it twice); from here on a failure gives it back with its lines.
    name: "claim-cart",
    run: async (c) => {
      if (!c.input.fromCart) return { claimed: false };
      const taken = await claimCartForCheckout(c.input.user.id, c.input.lines, c.id, checkoutClaimMs());
      if (!taken) return refuse({ refusal: CART_CHANGED }, { claimed: false });
      c.reorderedFrom = taken.reorderedFrom ?? null;
      return { claimed: true };
    },
    // Its receipt is lost when the sweep resumes: the claim is let go from the cart itself then.
    compensate: async (c, receipt) => {
      if (receipt?.claimed !== false) await dropCheckoutClaim(c.input.user.id, c.id);
    },
  }),
  claimQuote,
  {
    // An accounts member sees and pays orders but places none; on account needs terms.
    name: "check-payment-terms",
    run: async (c) => {
      const placer = c.input.placer;
      if (placer?.role === "customer" && !can(placer, "order"))
        return refuse({ payment: { status: 403, message: ACCOUNTS_CANNOT_ORDER, credit: null } });
      if (c.input.payment === "account" && !c.input.onAccount)
        return refuse({ payment: { status: 400, message: NO_TERMS, credit: null } });
    },
  },
  {
    // Every line against the part as it is now: a failure stops here, nothing written.
    name: "validate-lines",
    run: async (c) => {
      c.parts = await getPartsByIds(c.lines.map((line) => line.partId));
      const failures = c.lines.flatMap((line) => {
        const problem = lineProblem(c.parts.get(line.partId), line.quantity);
        return problem ? [failureOf(line, c.parts.get(line.partId), problem)] : [];
      });
      if (failures.length) return refuse({ failures });
    },
  },
  {
    // Priced here, from the parts just read: the prices and the tax are frozen on the order.
    name: "price-and-tax",
    run: async (c) => {
      const pricing = c.input.pricing ?? VISITOR_PRICING;
      c.priced = c.quote ? priceAtQuote(c, pricing) : priceWith(pricing, c.parts, c.lines, c.input.delivery);
      // Sold in the buyer's currency only at a price set in it: never converted (decision record 11).
      const unpriced = new Set(c.priced.unpriced);
      if (unpriced.size) {
        const failures = c.lines.flatMap((line) => {
          const part = c.parts.get(line.partId);
          if (!part || !unpriced.has(line.partId)) return [];
          const message = noPriceIn(part.partNumber, c.priced!.currency);
          return [failureOf(line, part, { reason: "no-price" as const, message })];
        });
        return refuse({ failures });
      }
      // The order keeps the figures the buyer saw: any other total is shown first, never charged.
      const quoted = c.input.quotedTotalCents;
      if (quoted !== undefined && quoted !== c.priced.totalCents)
        return refuse({ refusal: totalChanged(c.priced, quoted) });
    },
  },
  {
    // A card order within the customer's caps on unpaid orders; one on account within the credit limit.
    name: "check-caps-and-credit",
    run: async (c) => {
      const placer = c.input.placer?.id === c.input.user.id ? c.input.placer : c.input.user.id;
      c.caps = c.input.onAccount ? null : await unpaidCapsOf(placer);
      return overCaps(c);
    },
  },
  {
    // The order, "reserving" with its lines and number; then the caps and credit counted again with
    // it written, so of two checkouts racing past the first look, one sees the other.
    name: "write-reserving-order",
    run: async (c) => {
      await writeReservingOrder(orderFields(c, await reorderedFromNumber(c.reorderedFrom)));
      return (await overCaps(c, c.id)) ?? { orderId: c.id };
    },
    compensate: async (c) => ((await abandonOrder(c.id, [])) ? undefined : "kept"),
  },
  step({
    // Each line takes its stock with one conditional update that notes the order's hold on the part.
    name: "hold-stock",
    run: async (c) => {
      const held = await Promise.all(c.lines.map((line) => holdStock(line.partId, c.id, line.quantity)));
      const heldLines = c.lines.filter((_, i) => held[i]);
      if (held.some((part) => part === null)) {
        const missed = c.lines.filter((_, i) => !held[i]);
        const now = await getPartsByIds(missed.map((line) => line.partId));
        return refuse(
          {
            failures: missed.map((line) => {
              const part = now.get(line.partId);
              // Between the check and the hold another order took the stock (or an admin changed the part).
              const problem = lineProblem(part, line.quantity) ?? {
                reason: "above-stock" as const,
                message: "Other orders took this stock just now; please try again",
              };
              return failureOf(line, part ?? c.parts.get(line.partId), problem);
            }),
          },
          heldLines,
        );
      }
      c.backordered = held.some((part) => (part?.backordered ?? 0) > 0);
      c.belowMinimum = held.filter(
        (part): part is NonNullable<typeof part> => part !== null && part.availableQuantity < part.minOrderQuantity,
      );
      return heldLines;
    },
    // The sweep takes nothing more: it finishes an order only when every line already holds its stock.
    resume: async (c) => {
      const held = await partsHeldBy(
        c.id,
        c.lines.map((line) => line.partId),
      );
      if (c.order?.status !== "reserving" || !c.lines.every((line) => held.has(line.partId)))
        return refuse({ refusal: TOOK_TOO_LONG }, c.lines);
      return c.lines;
    },
    // Marked failed first (nothing can confirm it any more), then each hold it took given back once
    // (every line's, from the parts' own notes of the hold, when the step threw).
    compensate: async (c, heldLines: MergedLine[] | undefined) =>
      (await abandonOrder(c.id, heldLines ?? c.lines)) ? undefined : "kept",
  }),
  step({
    // A card order becomes unpaid (held until its hold time), one on account is confirmed, one over
    // the buyer's limit waits for approval. A cart claim the sweep let go (this checkout outlived
    // the deadline) means the cart was let go: not ordered.
    name: "confirm-or-send-for-approval",
    run: async (c) => {
      if (c.input.fromCart && !(await cartClaimedFor(c.input.user.id, c.id))) return refuse({ refusal: TOOK_TOO_LONG });
      c.order = await confirmOrder(
        c.id,
        c.belowMinimum.map((part) => part.id),
        // What the order was written with: not read back.
        { onAccount: Boolean(c.input.onAccount), waits: orderWaitsForApproval(c) },
      );
      if (!c.order) return refuse({ refusal: TOOK_TOO_LONG });
      if (c.backordered) c.order = (await noteBackorders(c)) ?? c.order;
      return { orderId: c.id };
    },
    resume: async (c) => {
      c.order = await confirmOrder(c.id);
      if (!c.order) return refuse({ refusal: TOOK_TOO_LONG });
      c.order = (await noteBackorders(c)) ?? c.order;
      return { orderId: c.id };
    },
    // Only when this step itself fails part way (backorders not noted): the order goes back to failed.
    compensate: async (c) => {
      await unconfirmOrder(c.id);
    },
    // From here the order stands (noted with its event, its cart claimed for it, on account invoice-pending).
    commits: true,
  }),
  markQuoteAccepted,
  {
    // The account's credit comes off the new order without anyone asking (paid at once when it
    // covers it); an order waiting for approval takes it once approved, as an invoice on account.
    name: "apply-account-credit",
    finishedBy: "the credit sweep (invoices on account); a card order is then charged its whole total",
    run: async (c) => {
      if (c.order && c.order.companyId && c.order.status !== "approval")
        c.order = (await applyAccountCredit(c.order.companyId, c.order)) ?? c.order;
    },
    resume: async () => {},
  },
  {
    // The order is placed: its cart empties, an order on account is invoiced, and its event (or the
    // owners' approval mail) goes out. Nothing here fails the order: each part logs its own failure
    // and a sweep finishes it (the cart claim sweep, the invoice screen, the order event sweep).
    name: "raise-events",
    finishedBy: "the stock sweep (cart, invoice number) and the order event sweep (mail, webhooks)",
    run: async (c) => {
      const order = await finishPlaced(c);
      if (order.status === "approval") {
        const placer = c.input.placer ?? (await getUserById(c.input.user.id));
        if (placer) await raiseApprovalNeeded(order, placer);
      } else {
        await raiseOrderEvent({ type: "orderPlaced", order, belowMinimum: c.belowMinimum, customer: c.input.placer });
      }
    },
    // The sweep leaves the event to the order event sweep, which finds it noted on the order.
    resume: async (c) => {
      await finishPlaced(c);
    },
  },
  // An order on account is invoiced as it is placed: its invoice goes to the ledger.
  postStep<Checkout>((c) => (c.order?.invoiceNumber ? c.order : null)),
  {
    // "Save to my address book", or the saved address the order went to confirmed: never fails the order.
    name: "remember-address",
    finishedBy: "nobody: an address not remembered is typed again at the next checkout",
    run: async (c) => {
      const { remember, user, phone, delivery } = c.input;
      if (remember?.addressId) await confirmSavedAddress(user.id, remember.addressId, delivery);
      if (remember?.save) await saveDeliveryToProfile(user.id, { phone, delivery });
    },
    resume: async () => {},
  },
]);

/** Lines that wait on backorder show it on the order, with the day the part expected its stock then. */
async function noteBackorders(c: Checkout) {
  if (c.parts.size === 0) c.parts = await getPartsByIds(c.lines.map((line) => line.partId));
  const expectedOn = new Map([...c.parts.values()].map((part) => [part.id, expectedRestockDay(part)]));
  return copyBackorders(c.id, { expectedOn });
}

/** The steps' names, in order (the tests fail each in turn). */
export const CHECKOUT_STEPS = CHECKOUT.stepNames;

/** The cart the order came from empties; an order confirmed on account gets its invoice number. */
async function finishPlaced(c: Checkout) {
  let order = c.order!;
  await emptyCheckedOutCart(order.userId, order.id).catch((error) =>
    logFailure(`Cart of order ${order.number} not emptied (the cart claim sweep will)`, error),
  );
  if (order.status === "account") {
    const number = await assignInvoiceNumber(order.id).catch((error) => {
      logFailure(`Invoice number not assigned to order ${order.number}`, error);
      return null;
    });
    if (number) order = { ...order, invoiceNumber: number };
  }
  c.order = order;
  return order;
}

/**
 * Places an order of one or more lines, all or nothing, through the CHECKOUT steps. The order keeps
 * a snapshot of each part's number, name and unit price; every total is computed here.
 * `options.afterStep` is the workflow's seam between steps (the tests fail each step in turn).
 */
export async function placeOrder(
  input: PlaceOrderInput,
  options: Pick<WorkflowOptions, "afterStep"> = {},
): Promise<PlaceOrderResult> {
  if (input.lines.length < 1 || input.lines.length > MAX_ORDER_LINES) {
    throw new Error(`An order has 1 to ${MAX_ORDER_LINES} lines`);
  }
  const checkout: Checkout = {
    input,
    id: input.orderId ?? newOrderId(),
    lines: mergeLines(input.lines),
    parts: new Map(),
    priced: null,
    caps: null,
    belowMinimum: [],
    order: null,
    reorderedFrom: input.reorderedFrom ?? null,
    backordered: false,
    quote: null,
  };
  const result = await CHECKOUT.run(checkout, options);
  if (!result.ok) return result.stop;
  return { ok: true, order: checkout.order!, belowMinimum: checkout.belowMinimum };
}

/**
 * The stock sweep's part of checkout: orders still reserving past their deadline (a crash, or a
 * placing step that outlived it) resume at "hold-stock". One whose every line holds its stock is
 * confirmed and its cart emptied; any other is undone by the same compensations (holds back, order
 * dropped, cart claim let go). Returns how many of each.
 */
export async function finishLeftReserving({ now = new Date(), limit = 200 } = {}) {
  let confirmed = 0;
  let released = 0;
  for (const order of await listLeftReserving({ now, limit })) {
    const checkout: Checkout = {
      input: {
        lines: order.lines,
        phone: order.phone,
        delivery: order.deliveryAddress ?? parseLegacyAddress(order.address).address,
        user: { id: order.userId, email: order.userEmail, name: order.userName, companyId: order.companyId || null },
      },
      id: order.id,
      lines: order.lines.map((line, index) => ({ partId: line.partId, quantity: line.quantity, index })),
      parts: new Map(),
      priced: null,
      caps: null,
      belowMinimum: [],
      order,
      reorderedFrom: null,
      backordered: false,
      quote: null,
    };
    const result = await CHECKOUT.run(checkout, { resumeAt: "hold-stock" });
    if (result.ok) confirmed++;
    else if (!result.kept) released++;
  }
  return { confirmed, released };
}
