import { type HeadersFunction, type LoaderFunctionArgs, type MetaFunction, data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { getOwnOrder } from "~/orders/model/reads.server";
import { requireUser } from "~/services/guards.server";
import { mayHandleOrder } from "~/services/companies.server";
import { formatCents } from "~/format";
import { describeOrder } from "~/domain/order-lines";
import { confirmReturnFromStripe, type ReturnCheck } from "~/orders/card-payments.server";
import { getStripe } from "~/services/stripe.server";
import { logFailure } from "~/services/log.server";

const PAYMENT_COMPLETED = "Congrats! Your payment is completed.";

/** What Stripe appends to the return URL: the PaymentIntent (Payment Element) or the Checkout Session. */
const returnSchema = z.object({
  payment_intent: z
    .string()
    .regex(/^pi_[A-Za-z0-9_]{1,200}$/)
    .optional(),
  session_id: z
    .string()
    .regex(/^cs_[A-Za-z0-9_]{1,200}$/)
    .optional(),
});

type State = "paid" | "processing" | "not_paid" | "unknown" | "closed";

/**
 * /dashboard/payment/{id}/success: where Stripe sends the customer back. The query string is only a
 * hint: the order becomes paid only if Stripe itself says the payment for this order succeeded.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  let order = await getOwnOrder(params.id ?? "", user);
  if (!order) throw new Response("We could not find that order among yours.", { status: 404 });
  if (!mayHandleOrder(user, order)) throw new Response("We could not find that order among yours.", { status: 404 });

  const search = new URL(request.url).searchParams;
  const ids = returnSchema.safeParse({
    payment_intent: search.get("payment_intent") ?? undefined,
    session_id: search.get("session_id") ?? undefined,
  });
  let check: ReturnCheck["outcome"] | "unreachable" | null = null;
  if (order.status === "unpaid" && ids.success && (ids.data.payment_intent || ids.data.session_id) && getStripe()) {
    try {
      ({ outcome: check } = await confirmReturnFromStripe(order.id, {
        paymentIntentId: ids.data.payment_intent,
        sessionId: ids.data.session_id,
      }));
      order = (await getOwnOrder(order.id, user)) ?? order;
    } catch (error) {
      logFailure(`Checking the payment of order ${order.id} with Stripe failed (the page says to check again)`, error);
      check = "unreachable";
    }
  }

  const state: State = order.paid
    ? "paid"
    : order.status !== "unpaid"
      ? "closed"
      : check === "processing"
        ? "processing"
        : check === "unreachable"
          ? "unknown"
          : "not_paid";
  return data(
    {
      state,
      order: {
        id: order.id,
        summary: order.summary,
        lineCount: order.lines.length,
        totalQuantity: order.totalQuantity,
        currency: order.currency,
        totalCents: order.totalCents,
        status: order.status,
        transactionId: order.paid ? order.transactionId : null,
      },
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

const linkClass = "text-brand-700 underline hover:text-brand-800";

export default function PaymentResult() {
  const { state, order } = useLoaderData<typeof loader>();
  const summary = `${describeOrder(order)}, ${formatCents(order.totalCents, { currency: order.currency })}`;
  return (
    <div className="mx-auto max-w-2xl px-4 py-10" data-state={state}>
      {state === "paid" ? (
        <section className="rounded-lg border-l-4 border-green-700 bg-green-50 p-6 text-green-900">
          <h1 className="text-2xl font-bold">{PAYMENT_COMPLETED}</h1>
          <p className="mt-3">{summary}</p>
          <p className="mt-2">
            Transaction id:{" "}
            <code className="break-all font-mono" data-testid="transaction-id">
              {order.transactionId}
            </code>
          </p>
        </section>
      ) : state === "processing" ? (
        <section className="rounded-lg border-l-4 border-brand-700 bg-brand-50 p-6 text-brand-900">
          <h1 className="text-2xl font-bold">Your payment is being processed</h1>
          <p className="mt-3">{summary}</p>
          <p className="mt-2">The order is marked paid as soon as Stripe confirms the payment.</p>
        </section>
      ) : state === "closed" ? (
        <section className="rounded-lg border-l-4 border-amber-600 bg-amber-50 p-6 text-amber-900">
          <h1 className="text-2xl font-bold">This order was {order.status}</h1>
          <p className="mt-3">{summary}</p>
          <p className="mt-2">It cannot be paid. If you were charged, the payment is refunded.</p>
        </section>
      ) : (
        <section className="rounded-lg border-l-4 border-red-700 bg-red-50 p-6 text-red-900">
          <h1 className="text-2xl font-bold">
            {state === "unknown" ? "We could not check your payment yet" : "Your payment was not completed"}
          </h1>
          <p className="mt-3">{summary}</p>
          <p className="mt-2">
            {state === "unknown"
              ? "Stripe could not be reached. If the payment went through, the order is marked paid shortly."
              : "The order is still unpaid."}{" "}
            <Link to={`/dashboard/payment/${order.id}`} reloadDocument className={linkClass}>
              Try paying again
            </Link>
          </p>
        </section>
      )}
      <p className="mt-6">
        <Link to="/dashboard/orders" className={linkClass}>
          Go to My Orders
        </Link>
      </p>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Payment — PartsWorks" }, { name: "robots", content: "noindex" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
