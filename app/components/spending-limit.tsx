import { useMoney } from "./money";

type Limit = { limitCents: number; approvers: string } | null;

/** The approval an order over the buyer's limit needs, said before it is placed. */
export function approvalNeeded(limit: Limit, totalCents: number | null) {
  return Boolean(limit && totalCents !== null && totalCents > limit.limitCents);
}

/**
 * A buyer's limit per order where they order (part page, cart, quick order, checkout): what is placed
 * at once, and, once the total is over it, who must approve the order before it goes on. The limit is
 * in the company's currency, the one the buyer orders in (the page's `InCurrency`).
 */
export function SpendingLimitNotice({ limit, totalCents }: { limit: Limit; totalCents: number | null }) {
  const money = useMoney();
  if (!limit) return null;
  if (approvalNeeded(limit, totalCents)) {
    return (
      <p
        data-testid="limit-notice"
        className="mt-3 rounded border-l-4 border-amber-600 bg-amber-50 p-3 text-amber-900"
        aria-live="polite"
      >
        <strong>This order needs approval by {limit.approvers}.</strong> It is over your limit of{" "}
        {money(limit.limitCents)} per order: placing it sends it to them, with its stock held until they decide.
      </p>
    );
  }
  return (
    <p data-testid="limit-notice" className="mt-3 text-sm text-slate-700" aria-live="polite">
      Your orders up to {money(limit.limitCents)} are placed at once; above that, {limit.approvers} approves them.
    </p>
  );
}
