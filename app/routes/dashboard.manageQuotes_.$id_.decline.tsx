import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  data,
} from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { useIsPending } from "~/components/forms";
import { DeclineQuotePageForm } from "~/components/staff-quote-decline";
import { ENDED_QUOTE_STATUSES, QUOTE_STATUS_WORDS, staffQuotePath } from "~/domain/quotes";
import { declineQuoteSchema } from "~/forms/quote-forms";
import { getQuote } from "~/orders/model/quotes.server";
import { declineQuote } from "~/orders/quotes.server";
import { parseForm, readForm } from "~/services/form.server";
import { requireAdmin } from "~/services/guards.server";
import { redirectWithSuccess } from "~/services/toast.server";

const NOT_FOUND = "There is no such quote.";

/** The Decline confirmation as a page (the quote page's modal, without JavaScript). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const quote = await getQuote(params.id ?? "");
  if (!quote) throw new Response(NOT_FOUND, { status: 404 });
  return data(
    {
      quote: {
        id: quote.id,
        label: quote.label,
        userName: quote.userName,
        status: quote.status,
        ended: (ENDED_QUOTE_STATUSES as readonly string[]).includes(quote.status),
      },
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const id = params.id ?? "";
  const submission = parseForm(await readForm(request), { schema: declineQuoteSchema });
  if (submission.status !== "success") {
    if (!(await getQuote(id))) throw new Response(NOT_FOUND, { status: 404 });
    return data(submission.reply(), { status: 400 });
  }
  const outcome = await declineQuote(admin, id, submission.value.reason, context);
  if (!outcome.ok) {
    if (outcome.status === 404) throw new Response(NOT_FOUND, { status: 404 });
    return data(submission.reply({ formErrors: Object.values(outcome.errors).flat() }), { status: outcome.status });
  }
  return redirectWithSuccess(
    staffQuotePath(id),
    `${outcome.quote.label} is declined; ${outcome.quote.userName} is told why`,
  );
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function DeclineQuotePage() {
  const { quote } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const pending = useIsPending();
  return (
    <div className="mx-auto max-w-lg px-4 py-10">
      <h1 className="text-2xl font-bold">Decline {quote.label}?</h1>
      <div className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        {quote.ended ? (
          <>
            <p>
              {quote.label} is {QUOTE_STATUS_WORDS[quote.status].label.toLowerCase()}: it cannot be declined now.
            </p>
            <Link
              to={staffQuotePath(quote.id)}
              className="mt-4 inline-flex min-h-11 items-center font-medium text-brand-700 underline"
            >
              Back to {quote.label}
            </Link>
          </>
        ) : (
          <DeclineQuotePageForm quote={quote} lastResult={lastResult} pending={pending} />
        )}
      </div>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Decline quote — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
