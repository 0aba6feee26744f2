import { Fragment } from "react";
import { CURRENCIES } from "~/content/currencies";
import { bankDetailsOf } from "~/domain/bank-accounts";
import { documentPath } from "~/domain/order-document";
import { useCurrency, useMoney } from "./money";

const linkClass = "inline-flex min-h-11 items-center font-medium text-brand-700 underline hover:text-brand-800";

/**
 * What a customer needs to pay an order by bank transfer: the amount, the order number to quote as
 * the payment reference, the shop's account in the order's currency (the surrounding `InCurrency`)
 * and the pro-forma (the same details, as a PDF).
 */
export function BankTransferDetails({ order }: { order: { id: string; number: string; totalCents: number } }) {
  const currency = useCurrency();
  const money = useMoney();
  return (
    <div className="mt-3 text-slate-800" data-testid="bank-transfer">
      <p>
        Send <strong>{money(order.totalCents)}</strong> to our account, quoting{" "}
        <strong data-testid="transfer-reference">{order.number}</strong> as the payment reference. We ship once the
        money arrives.
      </p>
      <dl className="mt-3 grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium text-slate-700">Amount</dt>
        <dd data-testid="transfer-amount">{`${money(order.totalCents)} (${CURRENCIES[currency].plural})`}</dd>
        <dt className="font-medium text-slate-700">Payment reference</dt>
        <dd className="font-mono">{order.number}</dd>
        {bankDetailsOf(currency).map((row) => (
          <Fragment key={row.label}>
            <dt className="font-medium text-slate-700">{row.label}</dt>
            <dd className={row.code ? "font-mono" : undefined}>{row.value}</dd>
          </Fragment>
        ))}
      </dl>
      <p className="mt-3 flex flex-wrap gap-x-4">
        <a href={documentPath(order.id, "pro-forma", true)} className={linkClass} data-testid="pro-forma-pdf">
          Pro-forma invoice {order.number} (PDF)
        </a>
        <a href={documentPath(order.id, "pro-forma")} className={linkClass}>
          View the pro-forma
        </a>
      </p>
    </div>
  );
}
