import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  data,
} from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { DeclineQuote } from "~/components/staff-quote-decline";
import { QuoteVersionForm, type VersionDefaults } from "~/components/staff-quote-form";
import { QuoteConversation } from "~/components/quote-conversation";
import { QuoteEnd, QuoteRequestLines } from "~/components/staff-quote-request";
import { QuoteVersionsSent } from "~/components/staff-quote-versions";
import { ENDED_QUOTE_STATUSES, QUOTE_STATUS_WORDS, type QuoteStatus } from "~/domain/quotes";
import { quoteVersionSchema, STAFF_QUOTES_PATH } from "~/forms/quote-forms";
import { formatDateTime } from "~/format";
import { getQuote, type QuoteView } from "~/orders/model/quotes.server";
import { lastValidityDay, sendQuoteVersion, staffLineFacts } from "~/orders/quotes.server";
import { parseForm, readForm } from "~/services/form.server";
import { requireAdmin } from "~/services/guards.server";
import { redirectWithSuccess } from "~/services/toast.server";

const NOT_FOUND = "There is no such quote.";
const DAY_MS = 24 * 60 * 60 * 1000;
/** A new quote's validity unless staff change it. */
const DEFAULT_VALIDITY_DAYS = 30;
const DEFAULT_TERMS =
  "Prices are net a unit, excluding VAT and delivery. Payment as agreed for your account. Lead times count from the day the order is placed.";

const isEnded = (status: QuoteStatus) => (ENDED_QUOTE_STATUSES as readonly QuoteStatus[]).includes(status);

/** The form starts from the last version sent (a revision changes what needs changing), else empty. */
function versionDefaults(quote: QuoteView, lastDay: string): VersionDefaults {
  const last = quote.current;
  const inDays = new Date(Date.now() + DEFAULT_VALIDITY_DAYS * DAY_MS).toISOString().slice(0, 10);
  return {
    lines: quote.lines.map((asked) => {
      const quoted = last?.lines.find((line) => line.partId === asked.partId);
      return {
        partId: asked.partId,
        unitPrice: quoted ? (quoted.unitPriceCents / 100).toFixed(2) : "",
        leadTimeDays: quoted ? String(quoted.leadTimeDays) : "",
        ...(quoted?.belowFloor ? { belowFloor: "on" as const } : {}),
      };
    }),
    validUntil: inDays < lastDay ? inDays : lastDay,
    terms: last?.terms || DEFAULT_TERMS,
    note: "",
    ...(last?.partialAllowed ? { partialAllowed: "on" as const } : {}),
  };
}

/**
 * One quote for staff: the request, the conversation, every version sent, and the form that sends
 * the next one (or Decline) while the quote is open.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const quote = await getQuote(params.id ?? "");
  if (!quote) throw new Response(NOT_FOUND, { status: 404 });
  const facts = await staffLineFacts(quote);
  const lastDay = lastValidityDay();
  return data(
    {
      quote,
      lines: quote.lines.map((line) => ({ ...line, ...facts.get(line.partId)! })),
      defaults: versionDefaults(quote, lastDay),
      today: new Date().toISOString().slice(0, 10),
      lastDay,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const id = params.id ?? "";
  const submission = parseForm(await readForm(request), { schema: quoteVersionSchema });
  if (submission.status !== "success") {
    if (!(await getQuote(id))) throw new Response(NOT_FOUND, { status: 404 });
    return data(submission.reply(), { status: 400 });
  }
  const outcome = await sendQuoteVersion(admin, id, submission.value, context);
  if (!outcome.ok) {
    if (outcome.status === 404) throw new Response(NOT_FOUND, { status: 404 });
    const { "": formErrors = [], ...fieldErrors } = outcome.errors;
    return data(submission.reply({ formErrors, fieldErrors }), { status: outcome.status });
  }
  const sent = outcome.quote.current!;
  return redirectWithSuccess(
    `${STAFF_QUOTES_PATH}/${id}`,
    `${sent.label} is sent to ${outcome.quote.userName} (${outcome.quote.userEmail})`,
  );
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function StaffQuote() {
  const { quote, lines, defaults, today, lastDay } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const ended = isEnded(quote.status);
  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <p className="text-sm">
        <Link to={STAFF_QUOTES_PATH} className="text-brand-700 underline">
          Quotes
        </Link>
      </p>
      <h1 className="mt-1 text-2xl font-bold">
        Quote {quote.label}{" "}
        <span className="text-lg font-medium text-slate-700" data-testid="quote-state">
          {QUOTE_STATUS_WORDS[quote.status].label}
        </span>
      </h1>
      <p className="mt-1 text-slate-700">
        {quote.userName}
        {quote.companyName ? ` of ${quote.companyName}` : ""} (
        <span className="[overflow-wrap:anywhere]">{quote.userEmail}</span>)
        {quote.waitingSince ? `; waiting for the shop since ${formatDateTime(quote.waitingSince)}` : ""}
      </p>
      <QuoteEnd quote={quote} />
      <QuoteRequestLines
        lines={quote.lines}
        currency={quote.currency}
        wantedBy={quote.wantedBy}
        askedAt={quote.createdAt}
      />
      <QuoteConversation messages={quote.messages} forStaff />
      <QuoteVersionsSent quoteId={quote.id} versions={quote.versions} currency={quote.currency} />
      {ended ? null : (
        <>
          <QuoteVersionForm
            quoteId={quote.id}
            label={quote.label}
            currency={quote.currency}
            versionCount={quote.versions.length}
            lines={lines}
            defaults={defaults}
            today={today}
            lastDay={lastDay}
            lastResult={lastResult}
          />
          <section aria-labelledby="quote-decline-heading" className="mt-6">
            <h2 id="quote-decline-heading" className="text-lg font-semibold">
              Cannot quote it?
            </h2>
            <p className="mb-2 text-sm text-slate-600">Decline the request with a reason the buyer reads.</p>
            <DeclineQuote quote={quote} />
          </section>
        </>
      )}
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => [
  { title: loaded ? `Quote ${loaded.quote.label} — PartsWorks` : "Quote — PartsWorks" },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
