import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, Link, useNavigation } from "@remix-run/react";
import {
  creditNotePath,
  creditHeldCents,
  REFUND_STATUS_WORDS,
  settlementWords,
  type CreditReason,
  type RefundStatus,
} from "~/domain/credit-notes";
import { formatDay } from "~/domain/order-states";
import { formatQuantity } from "~/format";
import { CANCEL_PAID_CONFIRM, cancelPaidSchema } from "~/forms/order-forms";
import { CANCEL_REASON_LABEL } from "~/forms/cancel-reason";
import { ErrorList, Field, SubmitButton } from "./forms";
import { AskPayoutForm, CreditHeldNote, holdsCredit } from "./order-cancelled";
import { usePayoutForm } from "./credit-payout";
import { useCurrency, useMoney } from "./money";

export type CreditNoteEntry = {
  id: string;
  number: string;
  issuedAt: string;
  reason: CreditReason;
  returnNumber: string | null;
  lines: { partNumber: string; productName: string; quantity: number; netCents: number }[];
  taxCents: number;
  totalCents: number;
  refundCents: number;
  appliedCents: number;
  accountCreditCents: number;
  refund: { id: string | null; status: RefundStatus; refundedAt: string | null } | null;
  payout: { paidAt: string; amountCents: number; reference: string; by: string | null } | null;
};

const linkClass = "inline-flex min-h-11 items-center font-medium text-brand-700 underline hover:text-brand-800";

/**
 * An order's credit notes and refunds, as the customer and staff read them, each with its document;
 * amounts in the order's currency (the page's `InCurrency`).
 */
export function OrderCreditNotes({
  orderId,
  creditNotes,
  viewer,
  reply,
  customer,
}: {
  orderId: string;
  creditNotes: CreditNoteEntry[];
  viewer: "customer" | "admin";
  /** Staff's last payout form reply (the admin page). */
  reply?: PayoutReply;
  /** The customer's page: whether they may ask us to pay out money on their account, and whether here (not above). */
  customer?: { mayAskPayout: boolean; askHere: boolean };
}) {
  const currency = useCurrency();
  const money = useMoney();
  if (!creditNotes.length) return null;
  return (
    <section id="credit-notes" aria-labelledby="credit-notes-heading" className="mt-8 scroll-mt-4">
      <h2 id="credit-notes-heading" className="text-lg font-semibold">
        Credit notes and refunds
      </h2>
      <ul className="mt-2 grid gap-3" data-testid="credit-notes">
        {creditNotes.map((note) => (
          <li key={note.id} className="rounded border border-slate-200 p-3" data-testid="credit-note">
            <p className="font-medium">
              Credit note <span data-testid="credit-note-number">{note.number}</span>: {money(note.totalCents)}
              {note.taxCents ? ` (tax ${money(note.taxCents)} included)` : ""}
            </p>
            <p className="text-sm text-slate-700">
              {note.reason === "return"
                ? `For the parts of ${note.returnNumber ?? "a return"} received back`
                : "The order was cancelled before it shipped"}
              , issued {formatDay(note.issuedAt)}
            </p>
            <ul className="mt-1 text-sm">
              {note.lines.map((line, index) => (
                <li key={index}>
                  {formatQuantity(line.quantity)} × {line.productName}
                  {line.partNumber ? ` (${line.partNumber})` : ""}: {money(line.netCents)}
                </li>
              ))}
            </ul>
            <p className="mt-1 text-sm" data-testid="credit-note-settlement">
              {settlementWords({ ...note, refundStatus: note.refund?.status ?? null }, currency)}
              {note.refund ? (
                <span className="block" data-testid="refund-status">
                  {REFUND_STATUS_WORDS[note.refund.status]}
                  {note.refund.refundedAt ? ` on ${formatDay(note.refund.refundedAt)}` : ""}
                  {viewer === "admin" && note.refund.id ? ` (Stripe refund ${note.refund.id})` : ""}
                </span>
              ) : null}
              {viewer === "customer" && holdsCredit([note]) ? (
                <CreditHeldNote mayAskPayout={customer?.mayAskPayout ?? false} button={customer?.askHere ?? false} />
              ) : null}
            </p>
            {viewer === "customer" && customer?.mayAskPayout && customer.askHere && holdsCredit([note]) ? (
              <AskPayoutForm />
            ) : null}
            {viewer === "admin" && creditHeldCents(note) > 0 ? (
              <PayoutForm note={note} reply={reply?.paymentId === note.id ? reply : undefined} />
            ) : null}
            <p className="flex flex-wrap gap-x-4">
              <Link to={creditNotePath(orderId, note.number)} className={linkClass}>
                Credit note {note.number}
              </Link>
              <a href={creditNotePath(orderId, note.number, true)} download className={linkClass}>
                Credit note {note.number} (PDF)
              </a>
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

type Reply = { intent: string; result: SubmissionResult<string[]> } | undefined;
type PayoutReply = { intent: string; paymentId: string; result: SubmissionResult<string[]> } | undefined;

/** Staff record that a credit note's account credit went back to the customer's bank. */
function PayoutForm({ note, reply }: { note: CreditNoteEntry; reply: PayoutReply }) {
  const money = useMoney();
  const { form, fields, pending } = usePayoutForm(
    `payout-${note.id}`,
    note.id,
    reply?.intent === "payout" ? reply.result : null,
  );
  return (
    <Form method="post" {...getFormProps(form)} className="mt-2 grid gap-2 sm:max-w-md">
      <input type="hidden" name="intent" value="payout" />
      <input type="hidden" name="creditNoteId" value={note.id} />
      <Field
        meta={fields.reference}
        label={`Paid out ${money(creditHeldCents(note))} by bank transfer: its reference`}
      />
      <ErrorList id={form.errorId} errors={form.errors} />
      <div>
        <SubmitButton pending={pending} pendingText="Recording…" variant="secondary">
          Record the payout of {note.number}
        </SubmitButton>
      </div>
    </Form>
  );
}

/** Staff cancel a paid order before it ships: stock back, a full credit note, card money refunded. */
export function CancelPaidOrderForm({
  order,
  reply,
}: {
  order: { number: string; totalCents: number; paymentMethod: string; transactionId: string | null };
  reply: Reply;
}) {
  const [form, fields] = useForm({
    id: "cancel-paid-form",
    lastResult: reply?.intent === "cancel-paid" ? reply.result : null,
    constraint: getZodConstraint(cancelPaidSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: cancelPaidSchema }),
  });
  const navigation = useNavigation();
  const money = useMoney();
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === "cancel-paid";
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-2">
      <input type="hidden" name="intent" value="cancel-paid" />
      <p className="text-sm text-slate-700">
        Its stock goes back on the shelf and a credit note of {money(order.totalCents)} is issued:{" "}
        {order.transactionId
          ? "the card payment is refunded through Stripe."
          : "money received comes off what the company owes (its statement), or off the open invoice."}
      </p>
      <Field meta={fields.reason} label={CANCEL_REASON_LABEL} inputProps={{ autoComplete: "off" }} />
      <label className="flex min-h-11 items-center gap-2">
        <input
          type="checkbox"
          name={fields.confirm.name}
          value="yes"
          required
          aria-invalid={fields.confirm.errors ? true : undefined}
          aria-describedby={fields.confirm.errorId}
        />
        {CANCEL_PAID_CONFIRM}
      </label>
      <ErrorList id={fields.confirm.errorId} errors={fields.confirm.errors} />
      <ErrorList id={form.errorId} errors={form.errors} />
      <div>
        <SubmitButton pending={pending} pendingText="Cancelling…" variant="danger">
          Cancel {order.number} and credit it
        </SubmitButton>
      </div>
    </Form>
  );
}
