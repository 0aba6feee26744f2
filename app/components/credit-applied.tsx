import { Fragment } from "react";
import { useMoney } from "./money";

/** Account credit taken off an order: each credit note it came from, and what is left to pay. */
export function CreditApplied({
  uses,
  totalCents,
  toPayCents,
}: {
  uses: { id: string; noteNumber: string; amountCents: number }[];
  totalCents: number;
  toPayCents: number;
}) {
  const money = useMoney();
  if (!uses.length) return null;
  return (
    <dl className="mt-4 grid max-w-md grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-slate-800" data-testid="credit-applied">
      <dt>Total</dt>
      <dd className="text-right tabular-nums">{money(totalCents)}</dd>
      {uses.map((use) => (
        <Fragment key={use.id}>
          <dt>
            Credit applied <span className="whitespace-nowrap">{use.noteNumber}</span>
          </dt>
          <dd className="text-right tabular-nums">− {money(use.amountCents)}</dd>
        </Fragment>
      ))}
      <dt className="font-semibold">To pay</dt>
      <dd className="text-right font-semibold tabular-nums" data-testid="to-pay">
        {money(toPayCents)}
      </dd>
    </dl>
  );
}
