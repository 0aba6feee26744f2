import { Form, Link } from "@remix-run/react";
import { cancelledMoneyWords, moneyBack, type CreditedMoney, type OrderState } from "~/domain/order-states";
import { SubmitButton, useIsPending } from "./forms";
import { useCurrency } from "./money";

/** Where a customer asks us to pay out the money held on their account (the statement's action). */
export const ASK_PAYOUT_ACTION = "/dashboard/statement";

/** "Ask us to pay it out": one button, posted as a plain form so it works without JavaScript. */
export function AskPayoutForm() {
  const pending = useIsPending({ formAction: ASK_PAYOUT_ACTION });
  return (
    <Form method="post" action={ASK_PAYOUT_ACTION} className="mt-2">
      <input type="hidden" name="intent" value="ask-payout" />
      <SubmitButton variant="secondary" pending={pending} pendingText="Asking…">
        Ask us to pay it out
      </SubmitButton>
    </Form>
  );
}

/** Whether a credit note leaves money on the customer's account that they may ask us for. */
export const holdsCredit = (notes: CreditedMoney[]) => moneyBack(notes).heldCents > 0;

/**
 * A cancelled or removed order, as its customer reads it under the status: where its money went
 * ("Cancelled, $x refunded to your card"), what they may do with money on their account, and staff's reason.
 */
export function OrderCancelledNotice({
  order,
  mayAskPayout,
}: {
  order: {
    state: OrderState;
    paid: boolean;
    cancelReason: string | null;
    creditNotes: CreditedMoney[];
  };
  /** The statement and its payout request are the company's owners' and accounts'. */
  mayAskPayout: boolean;
}) {
  const currency = useCurrency();
  const words = cancelledMoneyWords({ ...order, currency }, mayAskPayout);
  const reason = order.state === "cancelled" || order.state === "removed" ? order.cancelReason : null;
  if (!words && !reason) return null;
  return (
    <div className="mt-3 rounded border border-slate-200 bg-slate-50 p-3 text-slate-800" data-testid="order-ended">
      {words ? <p data-testid="cancelled-money">{words}</p> : null}
      {reason ? (
        <p data-testid="cancel-reason">
          Why we {order.state === "removed" ? "removed" : "cancelled"} it: {reason}
        </p>
      ) : null}
      {words && mayAskPayout && holdsCredit(order.creditNotes) ? <AskPayoutForm /> : null}
    </div>
  );
}

/**
 * Under a credit note whose money stays on the account: the statement, and the way to ask for it by bank
 * (`button`: said here; otherwise the order's cancellation notice above says it).
 */
export function CreditHeldNote({ mayAskPayout, button }: { mayAskPayout: boolean; button: boolean }) {
  if (!mayAskPayout)
    return button ? (
      <span className="block">
        It comes off your next order; your company&apos;s owners or accounts can ask us to pay it out.
      </span>
    ) : null;
  return (
    <span className="block">
      It shows on your{" "}
      <Link to="/dashboard/statement" className="font-medium text-brand-700 underline">
        statement
      </Link>
      {button ? ": it comes off your next order, or ask us to pay it out." : "."}
    </span>
  );
}
