import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  data as dataWithInit,
  redirect,
  redirectDocument,
} from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { redirectWithError, redirectWithInfo } from "~/services/toast.server";
import { z } from "zod";
import { HoldNotice } from "~/components/hold-forms";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { OrderLinesTable } from "~/components/order-lines";
import { CardPayment, CardPaymentForm } from "~/components/card-payment";
import { getOwnOrder } from "~/orders/model/reads.server";
import { orderPath } from "~/domain/order-lines";
import { ORDER_STATE_WORDS } from "~/domain/order-states";
import { requireUser } from "~/services/guards.server";
import { mayHandleOrder } from "~/services/companies.server";
import { getEnv } from "~/services/env.server";
import { formatQuantity } from "~/format";
import { canTakeCardPayments, createOrderCheckoutSession, createOrderPaymentIntent } from "~/services/stripe.server";
import { company } from "~/content/company";
import { BankTransferDetails } from "~/components/bank-transfer";
import { CreditApplied } from "~/components/credit-applied";
import { InCurrency, useMoney } from "~/components/money";
import { CURRENCIES } from "~/content/currencies";
import { parseForm, readForm } from "~/services/form.server";
import { logFailure } from "~/services/log.server";

const NOT_FOUND = "We could not find that order among yours.";
const SERVICE_DOWN = "We could not reach the card payment service. Please try again in a moment.";
/**
 * Said to the customer when the shop takes no card payments (it has no Stripe keys): how they pay instead.
 * What to set is on the admin dashboard only.
 */
const cardOff = (number: string, byTransfer: boolean) =>
  byTransfer
    ? `Card payment is off in this shop: pay ${number} by bank transfer, against its pro-forma invoice.`
    : `Card payment is off in this shop, so ${number} cannot be paid by card: pay it by bank transfer instead, against its pro-forma invoice.`;

/** The pay screen has one form: "Pay with card" on Stripe's hosted Checkout page. */
const checkoutSchema = z.object({ intent: z.literal("checkout") });

/** The signed-in customer's own unpaid order; anyone else's (or none) is a 404. */
async function requireUnpaidOrder(request: Request, orderId: string | undefined) {
  const user = await requireUser(request);
  const order = await getOwnOrder(orderId ?? "", user);
  if (!order) throw new Response(NOT_FOUND, { status: 404 });
  if (!mayHandleOrder(user, order)) throw new Response(NOT_FOUND, { status: 404 });
  if (order.paid) throw await redirectWithInfo("/dashboard/orders", "This order is already paid.");
  if (order.status === "account") {
    throw await redirectWithInfo(
      orderPath(order.id),
      `${order.number} is on account: pay it by bank transfer (see its invoice).`,
    );
  }
  if (order.state !== "unpaid") {
    throw await redirectWithError(
      "/dashboard/orders",
      `${order.number} is ${ORDER_STATE_WORDS[order.state]}, so it cannot be paid by card here.`,
    );
  }
  return { user, order };
}

/**
 * A fetch by the Remix router (client-side navigation or prefetch) rather than a page load. Stripe's
 * script and frames are admitted only by this page's own document (see the CSP in server.ts), so
 * such a navigation is turned into a full page load.
 */
function isClientSideNavigation(request: Request) {
  return request.headers.get("Sec-Fetch-Dest") === "empty";
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, order } = await requireUnpaidOrder(request, params.id);
  const data = {
    order: {
      id: order.id,
      number: order.number,
      summary: order.summary,
      lines: order.lines,
      netCents: order.netCents,
      taxLines: order.taxLines,
      totalQuantity: order.totalQuantity,
      /** The currency of the sale: every amount here, and the bank account named, are its. */
      currency: order.currency,
      totalCents: order.totalCents,
      /** What is asked now: the total less account credit taken off it and money received. */
      dueCents: order.balanceCents,
      creditUses: order.creditUses.map((use) => ({
        id: use.id,
        noteNumber: use.noteNumber,
        amountCents: use.amountCents,
      })),
      holdUntil: order.holdUntil,
      paymentMethod: order.paymentMethod,
    },
    billing: { name: user.name, email: user.email },
  };
  const headers = { "Cache-Control": "private, no-store" };
  const env = getEnv();
  if (!canTakeCardPayments(env)) {
    return dataWithInit({ ...data, payment: { state: "unconfigured" as const } }, { headers });
  }
  if (isClientSideNavigation(request)) throw redirectDocument(`/dashboard/payment/${order.id}`);
  try {
    const intent = await createOrderPaymentIntent(order);
    return dataWithInit(
      {
        ...data,
        payment: {
          state: "ready" as const,
          clientSecret: intent.clientSecret,
          publishableKey: env.STRIPE_PUBLISHABLE_KEY ?? "",
        },
      },
      { headers },
    );
  } catch (error) {
    logFailure(`Creating the PaymentIntent for order ${order.id} failed`, error);
    return dataWithInit({ ...data, payment: { state: "unavailable" as const } }, { headers });
  }
}

/** Without JavaScript: a Stripe Checkout Session for the order, and off to Stripe's hosted page. */
export async function action({ request, params }: ActionFunctionArgs) {
  const { order } = await requireUnpaidOrder(request, params.id);
  const submission = parseForm(await readForm(request), { schema: checkoutSchema });
  if (submission.status !== "success") return dataWithInit(submission.reply(), { status: 400 });
  if (!canTakeCardPayments()) {
    const byTransfer = order.paymentMethod === "bank-transfer";
    return dataWithInit(submission.reply({ formErrors: [cardOff(order.number, byTransfer)] }), { status: 503 });
  }
  let url: string;
  try {
    ({ url } = await createOrderCheckoutSession(order));
  } catch (error) {
    logFailure(`Creating the Checkout Session for order ${order.id} failed`, error);
    return dataWithInit(submission.reply({ formErrors: [SERVICE_DOWN] }), { status: 502 });
  }
  return redirect(url, 303);
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function PayOrder() {
  const { order } = useLoaderData<typeof loader>();
  return (
    <InCurrency currency={order.currency}>
      <PayOrderIn />
    </InCurrency>
  );
}

/** The pay screen in the order's currency (its amounts, and the bank account of that currency). */
function PayOrderIn() {
  const { order, billing, payment } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const money = useMoney();
  const byTransfer = order.paymentMethod === "bank-transfer";
  const cardReady = payment.state !== "unconfigured";
  return (
    <div className="mx-auto max-w-2xl px-4 py-10">
      <h1 className="text-3xl font-bold text-slate-900">Pay for your order {order.number}</h1>
      <HoldNotice holdUntil={order.holdUntil} />
      <section
        aria-labelledby="summary-heading"
        className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
      >
        <h2 id="summary-heading" className="text-xl font-semibold">
          Order summary
        </h2>
        <dl className="mt-4 grid grid-cols-1 gap-3 sm:grid-cols-3">
          <div>
            <dt className="text-sm text-slate-600">Order</dt>
            <dd className="font-semibold" data-testid="pay-order-number">
              {order.number}
            </dd>
          </div>
          <div>
            <dt className="text-sm text-slate-600">{order.lines.length === 1 ? "Part" : "Parts"}</dt>
            <dd className="font-semibold" data-testid="pay-part">
              {order.summary}
            </dd>
          </div>
          {/* Units of different parts do not add up: a quantity only for an order of one part. */}
          {order.lines.length === 1 ? (
            <div>
              <dt className="text-sm text-slate-600">Quantity</dt>
              <dd className="font-semibold" data-testid="pay-quantity">
                {formatQuantity(order.totalQuantity)}
              </dd>
            </div>
          ) : null}
          <div>
            <dt className="text-sm text-slate-600">Price</dt>
            <dd className="font-semibold" data-testid="pay-price">
              {money(order.totalCents)}
            </dd>
          </div>
        </dl>
        {order.lines.length === 1 ? (
          <p className="mt-2 text-sm text-slate-600">
            {`${money(order.lines[0].unitPriceCents)} per unit, in ${CURRENCIES[order.currency].plural}.`}
          </p>
        ) : (
          <div className="mt-4">
            <OrderLinesTable
              lines={order.lines}
              totalCents={order.totalCents}
              netCents={order.netCents}
              taxLines={order.taxLines}
              caption="The lines of this order"
            />
            <p className="mt-2 text-sm text-slate-600">{`In ${CURRENCIES[order.currency].plural}.`}</p>
          </div>
        )}
        <CreditApplied uses={order.creditUses} totalCents={order.totalCents} toPayCents={order.dueCents} />
      </section>

      {byTransfer || !cardReady ? (
        <section
          aria-labelledby="transfer-heading"
          className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
        >
          <h2 id="transfer-heading" className="text-xl font-semibold">
            Pay by bank transfer
          </h2>
          {cardReady ? null : <CardOff number={order.number} byTransfer={byTransfer} />}
          <BankTransferDetails order={{ ...order, totalCents: order.dueCents }} />
        </section>
      ) : null}
      {cardReady ? (
        <section
          aria-labelledby="pay-heading"
          className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
        >
          <h2 id="pay-heading" className="text-xl font-semibold">
            {byTransfer ? "Or pay by card" : "Card payment"}
          </h2>
          {payment.state === "unavailable" ? (
            <>
              <p className="mt-3 text-slate-700">{SERVICE_DOWN}</p>
              <CardPaymentForm lastResult={lastResult} />
            </>
          ) : (
            <CardPayment
              clientSecret={payment.clientSecret}
              publishableKey={payment.publishableKey}
              billing={billing}
              order={{ ...order, totalCents: order.dueCents }}
              lastResult={lastResult}
            />
          )}
        </section>
      ) : null}
      <p className="mt-6">
        <Link to="/dashboard/orders" className="text-brand-700 underline hover:text-brand-800">
          Back to My Orders
        </Link>
      </p>
    </div>
  );
}

function CardOff({ number, byTransfer }: { number: string; byTransfer: boolean }) {
  return (
    <div className="mt-3 space-y-3 text-slate-800" data-testid="payments-not-configured">
      <p className="font-medium">{cardOff(number, byTransfer)}</p>
      <p>
        Questions about paying {number}? Email{" "}
        <a href={`mailto:${company.email}`} className="text-brand-700 underline hover:text-brand-800">
          {company.email}
        </a>{" "}
        or call{" "}
        <a href={company.phone.href} className="text-brand-700 underline hover:text-brand-800">
          {company.phone.display}
        </a>{" "}
        ({company.hours}).
      </p>
    </div>
  );
}

export const meta: MetaFunction = () => [
  { title: "Pay for your order — PartsWorks" },
  { name: "robots", content: "noindex" },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
