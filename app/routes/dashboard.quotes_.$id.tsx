import type { SubmissionResult } from "@conform-to/react";
import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  data,
} from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { InCurrency } from "~/components/money";
import { QuoteAcceptForm } from "~/components/quote-accept";
import { QuoteConversation, RevisionForm } from "~/components/quote-conversation";
import { QuoteStatusBadge } from "~/components/quote-status";
import { QuoteRequestSummary, QuoteVersions } from "~/components/quote-versions";
import { orderPath } from "~/domain/order-lines";
import { quotePath } from "~/domain/quotes";
import { acceptQuoteSchema, QUOTES_PATH, revisionSchema } from "~/forms/quote-forms";
import { deliveryDefaults } from "~/models/address-book.server";
import { notAcceptable } from "~/orders/checkout-quote.server";
import { redirectAfterOrder } from "~/orders/checkout-redirects.server";
import { notPlacedReply } from "~/orders/place-replies.server";
import {
  acceptNotes,
  acceptQuote,
  ACCOUNTS_CANNOT_QUOTE,
  askForRevision,
  NOT_YOURS,
  quoteForCustomer,
} from "~/orders/quotes.server";
import { checkoutTerms } from "~/orders/service.server";
import { can } from "~/services/companies.server";
import { parseForm, readForm } from "~/services/form.server";
import { requireCustomer } from "~/services/guards.server";
import { newOneTimeKey, runOnce } from "~/services/one-time-key.server";
import { customerPricing } from "~/services/pricing.server";
import { spendingLimitFor } from "~/services/spending-limit.server";
import { redirectWithSuccess } from "~/services/toast.server";

type Customer = Awaited<ReturnType<typeof requireCustomer>>;

async function quoteOr404(id: string | undefined, user: Customer) {
  const quote = await quoteForCustomer(id ?? "", user);
  if (!quote) throw new Response(NOT_YOURS, { status: 404 });
  return quote;
}

/**
 * One quote for its buyer (or their company's owners and accounts): the request, each version, the
 * conversation, and while the latest version holds, "Ask for a revision" and Accept.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCustomer(request);
  const quote = await quoteOr404(params.id, user);
  const mayAct = can(user, "order");
  const current = quote.current;
  const open =
    quote.status === "quoted" && current !== null && !quote.accepting && new Date(current.validUntil) >= new Date();
  const accepting = open && mayAct;
  const [notes, terms, pricing, limit] = accepting
    ? await Promise.all([acceptNotes(quote), checkoutTerms(user), customerPricing(user), spendingLimitFor(user)])
    : [[], null, null, null];
  return data(
    {
      quote,
      mayAct,
      open,
      // Why Accept is not offered (requested, revision asked, expired, declined, accepted).
      closedWhy: open || !current ? null : notAcceptable(quote, current.version),
      accountsNote: mayAct ? null : ACCOUNTS_CANNOT_QUOTE,
      accept: accepting
        ? {
            notes,
            terms,
            limit,
            taxProfile: pricing?.tax ?? null,
            buyer: deliveryDefaults(user, new URL(request.url).searchParams.get("deliverTo")),
            oneTimeKey: newOneTimeKey(),
          }
        : null,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

type ActionData = { intent: "revision" | "accept"; result: SubmissionResult<string[]> };

/** Splits a service's errors by field into Conform's reply: "" is the whole form's. */
const replyErrors = (errors: Record<string, string[]>) => {
  const { "": formErrors, ...fieldErrors } = errors;
  return { formErrors: formErrors ?? [], fieldErrors };
};

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireCustomer(request);
  const quote = await quoteOr404(params.id, user);
  return runOnce(
    request,
    {
      ownerId: user.id,
      operation: "order:quote-accept",
      target: quote.id,
      when: (form) => form.get("intent") === "accept",
      shape: (result) => ({ intent: "accept", result }),
    },
    async () => {
      const formData = await readForm(request);
      const intent = formData.get("intent") === "accept" ? "accept" : "revision";
      const schema = intent === "accept" ? acceptQuoteSchema : revisionSchema;
      const submission = parseForm(formData, { schema });
      const reply = (result: SubmissionResult<string[]>, status: number) =>
        data<ActionData>({ intent, result }, { status });
      // Accounts people see the company's quotes; a buyer or an owner answers them.
      if (!can(user, "order")) return reply(submission.reply({ formErrors: [ACCOUNTS_CANNOT_QUOTE] }), 403);
      if (submission.status !== "success") return reply(submission.reply(), submission.status === "error" ? 400 : 200);
      const value = submission.value;
      if (value.intent === "revision") {
        const asked = await askForRevision(user, quote.id, value.message, context);
        if (!asked.ok) return reply(submission.reply(replyErrors(asked.errors)), asked.status);
        return redirectWithSuccess(
          quotePath(quote.id),
          `Revision of ${quote.label} asked: we send a new version within a working day`,
        );
      }
      if (quote.versions[value.version - 1]?.partialAllowed && !value.partIds?.length)
        // Above the button: no box ticked posts no `partIds`, so Conform would not show it by the boxes.
        return reply(submission.reply({ formErrors: ["Choose at least one line to order"] }), 400);
      const placed = await acceptQuote(user, quote.id, value);
      if ("errors" in placed) return reply(submission.reply(replyErrors(placed.errors)), placed.status);
      if (!placed.ok) {
        const { result, status } = notPlacedReply(submission, placed, (failures) => ({
          formErrors: failures.map((failure) => `${failure.partNumber ?? "A part"}: ${failure.message}`),
        }));
        return reply(result, status);
      }
      return redirectAfterOrder(placed.order);
    },
  );
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

const linkClass = "font-medium text-brand-700 underline hover:text-brand-800";

export default function QuotePage() {
  const { quote, mayAct, open, closedWhy, accountsNote, accept } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  const current = quote.current;
  // A form refused after the quote closed (accepted in another tab, expired): said in place of why it is closed.
  const refusals = !open ? (actionData?.result.error?.[""] ?? []) : [];
  return (
    <InCurrency currency={quote.currency}>
      <div className="mx-auto max-w-5xl px-4 py-8">
        <Link to={QUOTES_PATH} className={`${linkClass} inline-flex min-h-11 items-center text-sm`}>
          My Quotes
        </Link>
        <h1 className="text-2xl font-bold">Quote {quote.label}</h1>
        <p className="mt-2">
          <QuoteStatusBadge status={quote.status} long />
        </p>
        {quote.orderId ? (
          <p className="mt-2" data-testid="quote-order">
            Ordered as{" "}
            <Link to={orderPath(quote.orderId)} className={linkClass}>
              {quote.orderNumber ?? "your order"}
            </Link>
            {quote.acceptedVersion ? ` (version ${quote.acceptedVersion})` : ""}.
          </p>
        ) : null}
        {quote.declineReason ? (
          <p className="mt-2 rounded border-l-4 border-slate-500 bg-slate-50 p-3 text-slate-800">
            Declined: {quote.declineReason}
          </p>
        ) : null}
        {refusals.length ? (
          <ul className="mt-4 text-red-700" role="alert" data-testid="quote-refused">
            {refusals.map((error) => (
              <li key={error}>{error}</li>
            ))}
          </ul>
        ) : closedWhy && quote.status !== "requested" ? (
          <p className="mt-2 text-slate-800" data-testid="quote-closed">
            {closedWhy}
          </p>
        ) : null}
        <QuoteVersions quoteId={quote.id} versions={quote.versions} />
        {open && accountsNote ? (
          <p className="mt-6 rounded border-l-4 border-amber-600 bg-amber-50 p-3 text-amber-900" role="note">
            {accountsNote}
          </p>
        ) : null}
        {accept && current ? (
          <QuoteAcceptForm
            key={accept.buyer.addressId ?? "profile"}
            quoteId={quote.id}
            version={current}
            notes={accept.notes}
            buyer={accept.buyer}
            terms={accept.terms}
            limit={accept.limit}
            taxProfile={accept.taxProfile}
            lastResult={actionData?.intent === "accept" ? actionData.result : undefined}
            oneTimeKey={accept.oneTimeKey}
          />
        ) : null}
        {open && mayAct ? (
          <RevisionForm lastResult={actionData?.intent === "revision" ? actionData.result : undefined} />
        ) : null}
        <QuoteConversation messages={quote.messages} />
        <QuoteRequestSummary
          lines={quote.lines}
          wantedBy={quote.wantedBy}
          askedAt={quote.createdAt}
          askedBy={quote.userName}
        />
      </div>
    </InCurrency>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data ? `Quote ${data.quote.label}` : "Quote"} — PartsWorks` },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
