import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  data as dataWithInit,
} from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ExtendHoldForm, HoldNotice } from "~/components/hold-forms";
import { RecordedPayments, RecordPaymentForm, ShipForm } from "~/components/order-admin-forms";
import { OrderDetails, OrderHeading, PaymentSummary } from "~/components/order-details";
import { OrderReturns } from "~/components/order-returns";
import { orderShopActors } from "~/models/audit.server";
import { getOrderById } from "~/orders/model/reads.server";
import { requireAdmin } from "~/services/guards.server";
import { parseForm, readForm } from "~/services/form.server";
import { newOneTimeKey, runOnce } from "~/services/one-time-key.server";
import { extendHoldSchema } from "~/forms/hold-forms";
import { refuseMalformedList } from "~/forms/list-fields";
import { formatCents } from "~/format";
import { documentsOf } from "~/orders/documents.server";
import { adminOrderSchema, applyCreditSchema, cancelPaidSchema, payoutSchema } from "~/forms/order-forms";
import { ApplyCreditForm } from "~/components/apply-credit-form";
import { InCurrency } from "~/components/money";
import { applyCreditByStaff } from "~/orders/credit-apply.server";
import { creditHeldBy, openForCredit } from "~/orders/model/credit-use.server";
import { cancelPaidOrderWithCredit } from "~/orders/credit-notes.server";
import { payOutCredit } from "~/orders/payouts.server";
import { CancelPaidOrderForm, OrderCreditNotes } from "~/components/order-credit-notes";
import { orderStateText } from "~/domain/order-states";
import { orderTimeline } from "~/domain/order-timeline";
import { recordPayment, reversePayment } from "~/orders/service.server";
import { shipOrder } from "~/orders/warehouse.server";
import { formatDateTime } from "~/format";
import { extendHold } from "~/orders/stock-jobs.server";
import { redirectWithSuccess } from "~/services/toast.server";
import { staffQuotePath } from "~/domain/quotes";

const NOT_FOUND = "There is no order with that number.";

/**
 * Any order, for admins: lines, totals, delivery, payments and who did what when; shipping it with
 * tracking, recording money received outside Stripe, and reversing a wrong entry. Every amount is in
 * the order's currency, the amounts staff type too.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const id = params.id ?? "";
  const [order, actors] = await Promise.all([getOrderById(id), orderShopActors(id)]);
  if (!order) throw new Response(NOT_FOUND, { status: 404 });
  // The account's credit that staff may take off this order (only while it has something to pay), in its currency.
  const creditHeldCents = openForCredit(order)
    ? (await creditHeldBy(order.companyId, order.currency)).reduce((sum, note) => sum + note.heldCents, 0)
    : 0;
  return dataWithInit(
    {
      order,
      timeline: orderTimeline(order, "admin", actors),
      documents: documentsOf(order, "admin"),
      creditHeldCents,
      // The payment form's one-time key: the same payment sent twice is recorded once.
      oneTimeKey: newOneTimeKey(),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

/** Forms post here told apart by their intent: ship, record-payment, reverse-payment, extend-hold, cancel-paid, payout. */
export async function action(args: ActionFunctionArgs) {
  const admin = await requireAdmin(args.request);
  return runOnce(
    args.request,
    {
      ownerId: admin.id,
      operation: "payment:record",
      target: args.params.id ?? "",
      when: (form) => form.get("intent") === "record-payment",
      shape: (result) => ({ intent: "record-payment", paymentId: "", result }),
    },
    () => orderAction(args, admin),
  );
}

async function orderAction(
  { request, params, context }: ActionFunctionArgs,
  admin: Awaited<ReturnType<typeof requireAdmin>>,
) {
  const id = params.id ?? "";
  const formData = await readForm(request);
  // Only the ship form has line rows; a list sent any other way never reaches its page.
  refuseMalformedList(formData, "lines", ["quantity"]);
  const intent = String(formData.get("intent") ?? "ship");
  const paymentId = String(formData.get("paymentId") ?? "");
  if (intent === "extend-hold") {
    const submission = parseForm(formData, { schema: extendHoldSchema });
    if (submission.status !== "success")
      return dataWithInit({ intent, paymentId, result: submission.reply() }, { status: 400 });
    const order = await extendHold(id, submission.value.days, { id: admin.id, email: admin.email }, context);
    if (!order) {
      const current = await getOrderById(id);
      if (!current) throw new Response(NOT_FOUND, { status: 404 });
      const message = `Only an unpaid card order holds stock; ${current.number} has no hold to extend (or it changed just now).`;
      return dataWithInit({ intent, paymentId, result: submission.reply({ formErrors: [message] }) }, { status: 409 });
    }
    return redirectWithSuccess(
      `/dashboard/manageOrders/${order.id}`,
      `${order.number} holds its stock until ${formatDateTime(order.holdUntil)}`,
    );
  }
  if (intent === "apply-credit") {
    const submission = parseForm(formData, { schema: applyCreditSchema });
    if (submission.status !== "success")
      return dataWithInit({ intent, paymentId, result: submission.reply() }, { status: 400 });
    const applied = await applyCreditByStaff(id, submission.value.amount, {
      actor: { id: admin.id, email: admin.email },
      context,
    });
    if (!applied.ok) {
      if (applied.status === 404) throw new Response(NOT_FOUND, { status: 404 });
      return dataWithInit(
        { intent, paymentId, result: submission.reply({ formErrors: [applied.message] }) },
        { status: applied.status },
      );
    }
    return redirectWithSuccess(
      `/dashboard/manageOrders/${applied.order.id}`,
      `${formatCents(applied.appliedCents, { currency: applied.order.currency })} of account credit taken off ${applied.order.number}`,
    );
  }
  if (intent === "payout") {
    const submission = parseForm(formData, { schema: payoutSchema });
    const creditNoteId = String(formData.get("creditNoteId") ?? "");
    if (submission.status !== "success")
      return dataWithInit({ intent, paymentId: creditNoteId, result: submission.reply() }, { status: 400 });
    const paid = await payOutCredit(id, submission.value.creditNoteId, submission.value.reference, {
      actor: { id: admin.id, email: admin.email },
      context,
    });
    if (!paid.ok) {
      if (paid.status === 404) throw new Response(NOT_FOUND, { status: 404 });
      return dataWithInit(
        { intent, paymentId: creditNoteId, result: submission.reply({ formErrors: [paid.message] }) },
        { status: paid.status },
      );
    }
    return redirectWithSuccess(
      `/dashboard/manageOrders/${paid.order.id}#credit-notes`,
      `Payout of ${formatCents(paid.note.payout?.amountCents ?? 0, { currency: paid.order.currency })} recorded for credit note ${paid.note.number}`,
    );
  }
  if (intent === "cancel-paid") {
    const confirmed = parseForm(formData, { schema: cancelPaidSchema });
    if (confirmed.status !== "success")
      return dataWithInit({ intent, paymentId, result: confirmed.reply() }, { status: 400 });
    const cancelled = await cancelPaidOrderWithCredit(id, {
      actor: { id: admin.id, email: admin.email },
      context,
      reason: confirmed.value.reason,
    });
    if (!cancelled.ok) {
      if (cancelled.status === 404) throw new Response(NOT_FOUND, { status: 404 });
      return dataWithInit(
        { intent, paymentId, result: confirmed.reply({ formErrors: [cancelled.message] }) },
        { status: cancelled.status },
      );
    }
    const { order, note } = cancelled;
    return redirectWithSuccess(
      `/dashboard/manageOrders/${order.id}#credit-notes`,
      note
        ? `${order.number} is cancelled; credit note ${note.number} of ${formatCents(note.totalCents, { currency: order.currency })} is issued and the customer is emailed`
        : `${order.number} is cancelled; its credit note follows shortly`,
    );
  }
  const submission = parseForm(formData, { schema: adminOrderSchema(intent) });
  if (submission.status !== "success") {
    return dataWithInit({ intent, paymentId, result: submission.reply() }, { status: 400 });
  }
  const current = await getOrderById(id);
  if (!current) throw new Response(NOT_FOUND, { status: 404 });
  const actor = { id: admin.id, email: admin.email };
  const back = `/dashboard/manageOrders/${current.id}`;
  const value = submission.value;

  if (value.intent === "ship") {
    const shipped = await shipOrder(
      current.id,
      {
        carrier: value.carrier,
        trackingNumber: value.trackingNumber || null,
        note: value.note || null,
        lines: value.lines?.map((line, lineIndex) => ({ lineIndex, quantity: line.quantity })),
      },
      { actor, context, current },
    );
    if (!shipped.ok) {
      // A line asked for more than it may ship: the message sits at that line's field.
      const reply =
        shipped.lineIndex !== undefined
          ? submission.reply({ fieldErrors: { [`lines[${shipped.lineIndex}].quantity`]: [shipped.message] } })
          : submission.reply({ formErrors: [shipped.message] });
      return dataWithInit({ intent, paymentId, result: reply }, { status: shipped.status });
    }
    const parcel = shipped.order.shipments.find((entry) => entry.id === shipped.shipmentId);
    return redirectWithSuccess(
      back,
      shipped.complete
        ? `${shipped.order.number} is shipped; the customer is emailed`
        : `Parcel ${parcel?.number ?? ""} of ${shipped.order.number} is shipped; the customer is emailed`,
    );
  }

  if (value.intent === "record-payment") {
    const recorded = await recordPayment(
      current.id,
      {
        amountCents: value.amount,
        method: value.method,
        receivedOn: new Date(`${value.receivedOn}T00:00:00Z`),
        reference: value.reference ?? "",
        secondPayment: value.secondPayment === true,
      },
      { actor, context },
    );
    if (!recorded.ok) {
      const reply = recorded.field
        ? submission.reply({ fieldErrors: { [recorded.field]: [recorded.message] } })
        : submission.reply({ formErrors: [recorded.message] });
      return dataWithInit(
        { intent, paymentId, result: reply, duplicate: recorded.duplicate === true },
        { status: recorded.status },
      );
    }
    const { order } = recorded;
    // Back to the payments, where the one just recorded is listed.
    return redirectWithSuccess(
      `${back}#payment`,
      recorded.paidInFull
        ? `${order.number} is paid; the receipt is emailed`
        : `Payment recorded on ${order.number}: ${formatCents(order.balanceCents, { currency: order.currency })} left to pay`,
    );
  }

  const reversed = await reversePayment(current.id, value.paymentId, value.reason, { actor, context });
  if (!reversed.ok) {
    return dataWithInit(
      { intent, paymentId, result: submission.reply({ formErrors: [reversed.message] }) },
      { status: reversed.status },
    );
  }
  return redirectWithSuccess(
    `${back}#payment`,
    `Payment reversed on ${reversed.order.number}: ${formatCents(reversed.order.balanceCents, { currency: reversed.order.currency })} to pay`,
  );
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function AdminOrderPage() {
  const { order, timeline, documents, oneTimeKey, creditHeldCents } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const canShip = order.status === "paid" || order.status === "account";
  return (
    <InCurrency currency={order.currency}>
      <div className="mx-auto max-w-4xl px-4 py-8">
        <OrderHeading back={{ to: "/dashboard/manageOrders", label: "Manage Orders" }} order={order} />
        <dl className="mt-3 grid gap-x-4 gap-y-1 sm:grid-cols-[max-content_1fr]">
          <dt className="font-medium text-slate-700">Status</dt>
          <dd data-testid="order-status">{orderStateText(order)}</dd>
          {order.cancelReason ? (
            <>
              <dt className="font-medium text-slate-700">
                {order.state === "removed" ? "Removed" : "Cancelled"} because
              </dt>
              <dd data-testid="cancel-reason">{order.cancelReason}</dd>
            </>
          ) : null}
          <dt className="font-medium text-slate-700">Customer</dt>
          <dd>
            <Link to={`/dashboard/allUsers/${order.userId}`} className="font-medium text-brand-700 underline">
              {order.userName}
            </Link>{" "}
            <span className="break-all text-slate-600">({order.userEmail})</span>
            {order.companyName ? <span className="block">{order.companyName}</span> : null}
          </dd>
          <dt className="font-medium text-slate-700">Stripe transaction id</dt>
          <dd className="break-all font-mono" data-testid="transaction-id">
            {order.transactionId ?? "none (not paid by card)"}
          </dd>
          {order.poNumber ? (
            <>
              <dt className="font-medium text-slate-700">Customer’s PO number</dt>
              <dd data-testid="po-number">{order.poNumber}</dd>
            </>
          ) : null}
          {order.quote ? (
            <>
              <dt className="font-medium text-slate-700">Quote</dt>
              <dd data-testid="order-quote">
                <Link to={staffQuotePath(order.quote.id)} className="font-medium text-brand-700 underline">
                  From quote {order.quote.label}
                </Link>
              </dd>
            </>
          ) : null}
        </dl>
        <HoldNotice holdUntil={order.holdUntil} who="customer" waiting={order.status === "approval"} />
        <PaymentSummary order={order} />
        <OrderDetails order={order} timeline={timeline} documents={documents} />
        <OrderReturns returns={order.returns} viewer="admin" orderId={order.id} />
        <OrderCreditNotes orderId={order.id} creditNotes={order.creditNotes} viewer="admin" reply={reply} />
        {creditHeldCents > 0 ? (
          <ApplyCreditForm
            heldCents={creditHeldCents}
            openCents={order.balanceCents}
            reply={reply?.intent === "apply-credit" ? reply.result : undefined}
          />
        ) : null}
        {order.holdUntil ? (
          <section id="hold" aria-labelledby="hold-heading" className="mt-8 scroll-mt-4">
            <h2 id="hold-heading" className="text-lg font-semibold">
              Hold the stock longer
            </h2>
            <p className="text-sm text-slate-700">
              The customer needs more time to pay: the hold runs on from its current end, and a new reminder goes out
              before it.
            </p>
            <ExtendHoldForm reply={reply} />
          </section>
        ) : null}
        {canShip ? (
          <section id="ship" aria-labelledby="ship-heading" className="mt-8 scroll-mt-4">
            <h2 id="ship-heading" className="text-lg font-semibold">
              {order.shipments.length ? "Ship the next parcel" : "Ship this order"}
            </h2>
            {/* A new parcel or stock allocated changes what each line may ship: the form starts again from it. */}
            <ShipForm key={`${order.shipments.length}-${order.backorderedUnits}`} order={order} reply={reply} />
          </section>
        ) : null}
        {canShip && !order.shipments.length ? (
          <section id="cancel-paid" aria-labelledby="cancel-paid-heading" className="mt-8 scroll-mt-4">
            <h2 id="cancel-paid-heading" className="text-lg font-semibold">
              Cancel before it ships
            </h2>
            <CancelPaidOrderForm order={order} reply={reply} />
          </section>
        ) : null}
        {order.payments.length || order.balanceCents > 0 ? (
          <section id="payment" aria-labelledby="payment-heading" className="mt-8 scroll-mt-4">
            <h2 id="payment-heading" className="text-lg font-semibold">
              Payments received outside Stripe
            </h2>
            <RecordedPayments payments={order.payments} reply={reply} />
            {order.balanceCents > 0 ? (
              <div className="mt-4">
                <h3 className="font-medium">Record a payment</h3>
                {/* A new form after each payment recorded: the fields start empty again. */}
                <RecordPaymentForm
                  key={order.payments.length}
                  balanceCents={order.balanceCents}
                  placedOn={order.createdAt.slice(0, 10)}
                  reply={reply}
                  oneTimeKey={oneTimeKey}
                />
              </div>
            ) : null}
          </section>
        ) : null}
      </div>
    </InCurrency>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.order.number ?? "Order"} — PartsWorks` },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
