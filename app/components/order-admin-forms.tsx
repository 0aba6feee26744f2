import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, useNavigation } from "@remix-run/react";
import { carriers, COLLECTED } from "~/content/carriers";
import { formatQuantity } from "~/format";
import {
  MAX_SHIPMENT_NOTE,
  recordPaymentSchema,
  reversePaymentSchema,
  SECOND_PAYMENT_LABEL,
  shipOrderSchema,
  today,
} from "~/forms/order-forms";
import { formatDay, PAYMENT_METHOD_WORDS, PAYMENT_METHODS } from "~/domain/order-states";
import { ErrorList, Field, SelectField, SubmitButton } from "./forms";
import { LineQuantitiesFieldset } from "./line-quantities-fieldset";
import { useCurrency, useMoney } from "./money";
import { ONE_TIME_KEY_FIELD } from "~/forms/one-time-key";

type Reply =
  { intent: string; paymentId?: string; result: SubmissionResult<string[]>; duplicate?: boolean } | undefined;

function usePendingIntent(intent: string, paymentId?: string) {
  const navigation = useNavigation();
  return (
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === intent &&
    (!paymentId || navigation.formData?.get("paymentId") === paymentId)
  );
}

type ShippableOrder = {
  number: string;
  lines: {
    productName: string;
    partNumber: string;
    quantity: number;
    backorderedQuantity: number;
    shippedQuantity: number;
  }[];
};

/**
 * Ship a parcel: the units of each line in it (at first, every unit that can ship now), a carrier
 * and its tracking number, or collected by the customer. The server checks each line's units.
 */
export function ShipForm({ order, reply }: { order: ShippableOrder; reply: Reply }) {
  const canShip = order.lines.map((line) =>
    Math.max(0, line.quantity - line.backorderedQuantity - line.shippedQuantity),
  );
  const [form, fields] = useForm({
    id: "ship-form",
    lastResult: reply?.intent === "ship" ? reply.result : null,
    constraint: getZodConstraint(shipOrderSchema),
    defaultValue: { lines: canShip.map((units) => ({ quantity: String(units) })) },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: shipOrderSchema }),
  });
  const pending = usePendingIntent("ship");
  const whole = canShip.every(
    (units, index) => units + order.lines[index].shippedQuantity === order.lines[index].quantity,
  );
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-x-4 sm:grid-cols-2">
      <input type="hidden" name="intent" value="ship" />
      <LineQuantitiesFieldset
        legend="Units in this parcel"
        meta={fields.lines}
        lines={order.lines}
        max={(_line, index) => canShip[index]}
        detail={(line, index) => (
          <>
            {formatQuantity(line.shippedQuantity)} of {formatQuantity(line.quantity)} shipped
            {line.backorderedQuantity ? `, ${formatQuantity(line.backorderedQuantity)} on backorder` : ""}; up to{" "}
            {formatQuantity(canShip[index])} can ship now
          </>
        )}
        testId="ship-lines"
        className="sm:col-span-2"
      />
      <SelectField meta={fields.carrier} label="Carrier">
        <option value="">Choose…</option>
        {carriers.map((carrier) => (
          <option key={carrier.id} value={carrier.id}>
            {carrier.name}
          </option>
        ))}
        <option value={COLLECTED}>Collected by the customer (no carrier)</option>
      </SelectField>
      <Field
        meta={fields.trackingNumber}
        label="Tracking number"
        help="Leave empty when the customer collected the order."
        inputProps={{ autoComplete: "off" }}
      />
      <div className="sm:col-span-2">
        <Field
          meta={fields.note}
          label="Note on the packing slip (optional)"
          inputProps={{ autoComplete: "off", maxLength: MAX_SHIPMENT_NOTE }}
        />
      </div>
      <ErrorList id={form.errorId} errors={form.errors} />
      <div className="sm:col-span-2">
        <SubmitButton pending={pending} pendingText="Marking shipped…">
          {whole && !order.lines.some((line) => line.shippedQuantity)
            ? `Mark ${order.number} shipped and email the customer`
            : `Ship this parcel of ${order.number} and email the customer`}
        </SubmitButton>
      </div>
    </Form>
  );
}

/**
 * Money received outside Stripe: amount, day received, method, reference. After a payment that
 * repeats one already recorded is refused, "This is a second payment" lets staff record it anyway.
 */
export function RecordPaymentForm({
  balanceCents,
  placedOn,
  reply,
  oneTimeKey,
}: {
  balanceCents: number;
  /** The day the order was placed (YYYY-MM-DD): no payment arrives before it. */
  placedOn: string;
  reply: Reply;
  /** The same payment sent twice is recorded once (app/services/one-time-key.server.ts). */
  oneTimeKey: string;
}) {
  const mine = reply?.intent === "record-payment";
  const [form, fields] = useForm({
    id: "record-payment-form",
    lastResult: mine ? reply.result : null,
    constraint: getZodConstraint(recordPaymentSchema),
    defaultValue: { receivedOn: today(), method: "bank-transfer" },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: recordPaymentSchema }),
  });
  const pending = usePendingIntent("record-payment");
  // Typed in the order's currency, in its major unit (1250.00).
  const currency = useCurrency();
  const money = useMoney();
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-x-4 sm:grid-cols-2">
      <input type="hidden" name="intent" value="record-payment" />
      <input type="hidden" name={ONE_TIME_KEY_FIELD} value={oneTimeKey} />
      <Field
        meta={fields.amount}
        label={`Amount received (${currency})`}
        help={`At most the balance, ${money(balanceCents)}.`}
        inputProps={{ inputMode: "decimal", autoComplete: "off", placeholder: money(balanceCents, { plain: true }) }}
      />
      <Field
        meta={fields.receivedOn}
        label="Date received"
        inputProps={{ type: "date", min: placedOn, max: today() }}
      />
      <SelectField meta={fields.method} label="Method" alwaysChosen>
        {PAYMENT_METHODS.map((method) => (
          <option key={method} value={method}>
            {PAYMENT_METHOD_WORDS[method]}
          </option>
        ))}
      </SelectField>
      <Field
        meta={fields.reference}
        label="Reference"
        help="The bank's reference, or the cheque number."
        inputProps={{ autoComplete: "off" }}
      />
      {mine && reply.duplicate ? (
        <label className="flex min-h-11 items-start gap-2 py-1 text-slate-800 sm:col-span-2">
          <input type="checkbox" name={fields.secondPayment.name} value="on" className="mt-1 h-5 w-5" />
          <span className="font-medium">{SECOND_PAYMENT_LABEL}</span>
        </label>
      ) : null}
      <ErrorList id={form.errorId} errors={form.errors} />
      <div className="sm:col-span-2">
        <SubmitButton pending={pending} pendingText="Recording…">
          Record payment
        </SubmitButton>
      </div>
    </Form>
  );
}

type PaymentRow = {
  id: string;
  amountCents: number;
  method: (typeof PAYMENT_METHODS)[number];
  receivedOn: string;
  reference: string;
  recordedBy: string;
  reversedAt: string | null;
  reversedBy: string | null;
  reversalReason: string | null;
};

/** The payments staff recorded, each with its reversal (kept, never deleted). */
export function RecordedPayments({ payments, reply }: { payments: PaymentRow[]; reply: Reply }) {
  const money = useMoney();
  if (!payments.length) return <p className="text-slate-700">No payments recorded.</p>;
  return (
    <ul className="divide-y divide-slate-200 rounded border border-slate-200" data-testid="recorded-payments">
      {payments.map((payment) => (
        <li key={payment.id} className="p-3">
          <p className={payment.reversedAt ? "text-slate-500 line-through" : "font-medium"}>
            {money(payment.amountCents)} by {PAYMENT_METHOD_WORDS[payment.method].toLowerCase()}, received{" "}
            {formatDay(payment.receivedOn)}
            {payment.reference ? `, reference ${payment.reference}` : ""}
          </p>
          <p className="text-xs text-slate-600">Recorded by {payment.recordedBy}</p>
          {payment.reversedAt ? (
            <p className="text-sm text-slate-700">
              Reversed {formatDay(payment.reversedAt)} by {payment.reversedBy}: {payment.reversalReason}
            </p>
          ) : (
            <ReverseForm paymentId={payment.id} reply={reply} />
          )}
        </li>
      ))}
    </ul>
  );
}

function ReverseForm({ paymentId, reply }: { paymentId: string; reply: Reply }) {
  const mine = reply?.intent === "reverse-payment" && reply.paymentId === paymentId;
  const [form, fields] = useForm({
    id: `reverse-${paymentId}`,
    lastResult: mine ? reply.result : null,
    constraint: getZodConstraint(reversePaymentSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: reversePaymentSchema }),
  });
  const pending = usePendingIntent("reverse-payment", paymentId);
  return (
    <details className="mt-1" open={mine || undefined}>
      <summary className="inline-flex min-h-11 cursor-pointer items-center text-sm font-medium text-brand-700 underline">
        Reverse this payment…
      </summary>
      <Form method="post" {...getFormProps(form)} className="mt-2 max-w-md">
        <input type="hidden" name="intent" value="reverse-payment" />
        <input type="hidden" name="paymentId" value={paymentId} />
        <Field meta={fields.reason} label="Why is it reversed?" inputProps={{ autoComplete: "off" }} />
        <ErrorList id={form.errorId} errors={form.errors} />
        <SubmitButton variant="danger" pending={pending} pendingText="Reversing…">
          Reverse payment
        </SubmitButton>
      </Form>
    </details>
  );
}
