import type { SubmissionResult } from "@conform-to/react";
import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  data,
  redirect,
} from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { QuoteRequestForm, type RequestRow } from "~/components/quote-request-form";
import { NotForYourRole } from "~/components/role-refusal";
import { MAX_QUOTE_LINES, quotePath } from "~/domain/quotes";
import { NEW_QUOTE_PATH } from "~/forms/quote-forms";
import { compactRequest, EMPTY_QUOTE_ROWS, errorsOnRows, quoteRequestFormSchema } from "~/forms/quote-request-form";
import { parsePad } from "~/forms/quick-order";
import { getCart } from "~/models/cart.server";
import { ACCOUNTS_CANNOT_QUOTE, requestQuote } from "~/orders/quotes.server";
import { can } from "~/services/companies.server";
import { parseForm, readForm } from "~/services/form.server";
import { getUser, requireCustomer } from "~/services/guards.server";
import { customerPricing } from "~/services/pricing.server";
import { listLinesFor, LIST_NOT_FOUND } from "~/services/saved-lists.server";
import { signInToContinue } from "~/services/sign-in-intent.server";
import { redirectWithSuccess } from "~/services/toast.server";

/** Pad text kept in the address (from the quick-order pad, or through a sign-in): a URL stays short. */
const MAX_PAD_IN_URL = 1500;

const blankRows = (count: number): RequestRow[] =>
  Array.from({ length: count }, () => ({ partNumber: "", quantity: "" }));

/** Lines typed as the pad reads them ("PW-1001 150", one a line) for the address of this form. */
function padPath(text: string) {
  const kept = parsePad(text)
    .slice(0, MAX_QUOTE_LINES)
    .map((entry) => `${entry.partNumber} ${entry.quantityText}`.trim())
    .join("\n")
    .slice(0, MAX_PAD_IN_URL);
  return kept ? `${NEW_QUOTE_PATH}?${new URLSearchParams({ pad: kept })}` : NEW_QUOTE_PATH;
}

/**
 * The request form, filled from where the buyer came: the cart (`?from=cart`), a saved list
 * (`?list=id`) or the quick-order pad's lines (`?pad=…`); else empty rows to type into.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCustomer(request);
  const search = new URL(request.url).searchParams;
  const [pricing, prefill] = await Promise.all([customerPricing(user), prefillOf(user, search)]);
  return data(
    {
      mayRequest: can(user, "order"),
      currency: pricing.currency,
      source: prefill.source,
      rows: [...prefill.rows, ...blankRows(prefill.rows.length ? 1 : EMPTY_QUOTE_ROWS)],
      today: new Date().toISOString().slice(0, 10),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

async function prefillOf(user: Awaited<ReturnType<typeof requireCustomer>>, search: URLSearchParams) {
  const listId = search.get("list");
  if (listId) {
    const list = await listLinesFor(user, listId);
    if (!list) throw new Response(LIST_NOT_FOUND, { status: 404 });
    const rows = list.lines.map((line) => ({ partNumber: line.partNumber, quantity: String(line.quantity) }));
    return { source: `your saved list “${list.name}”`, rows: rows.slice(0, MAX_QUOTE_LINES) };
  }
  if (search.get("from") === "cart") {
    const cart = await getCart(user.id);
    const rows = cart.lines.flatMap((line) =>
      line.part ? [{ partNumber: line.part.partNumber, quantity: String(line.quantity) }] : [],
    );
    return { source: rows.length ? "your cart" : null, rows: rows.slice(0, MAX_QUOTE_LINES) };
  }
  const pad = search.get("pad");
  if (pad) {
    const rows = parsePad(pad.slice(0, MAX_PAD_IN_URL))
      .slice(0, MAX_QUOTE_LINES)
      .map((entry) => ({ partNumber: entry.partNumber, quantity: entry.quantityText }));
    return { source: rows.length ? "the quick-order pad" : null, rows };
  }
  return { source: null, rows: [] as RequestRow[] };
}

type ActionData = { result: SubmissionResult<string[]> };

export async function action({ request, context }: ActionFunctionArgs) {
  if (!(await getUser(request))) {
    // Signed out while typing: the rows come back on the form after the sign-in (as pad lines).
    const form = await readForm(request);
    const typed = [...form.entries()]
      .filter(([name]) => /^lines\[\d+\]\.(partNumber|quantity)$/.test(name))
      .reduce<Record<string, string[]>>((rows, [name, value]) => {
        const index = name.slice(0, name.indexOf("]"));
        (rows[index] ??= []).push(String(value));
        return rows;
      }, {});
    const pad = typeof form.get("lines") === "string" ? String(form.get("lines")) : "";
    const text =
      pad ||
      Object.values(typed)
        .map((row) => row.join(" ").trim())
        .join("\n");
    return signInToContinue(request, null, padPath(text));
  }
  const user = await requireCustomer(request);
  const formData = await readForm(request);
  if (!can(user, "order")) {
    const refused = parseForm(formData, { schema: quoteRequestFormSchema }).reply({
      formErrors: [ACCOUNTS_CANNOT_QUOTE],
    });
    return data<ActionData>({ result: refused }, { status: 403 });
  }
  // "Request a quote" on the quick-order pad posts the pad's lines here: the form opens filled with them.
  if (new URL(request.url).searchParams.get("from") === "pad") {
    const lines = formData.get("lines");
    return redirect(padPath(typeof lines === "string" ? lines : ""));
  }
  const submission = parseForm(formData, { schema: quoteRequestFormSchema });
  if (formData.get("more")) {
    // "Add more lines" without JavaScript: every row as typed, empty rows below, no message yet.
    const payload = submission.payload as { lines?: unknown };
    const typed = Array.isArray(payload.lines) ? payload.lines : [];
    const rows = [...typed, ...blankRows(EMPTY_QUOTE_ROWS)].slice(0, MAX_QUOTE_LINES);
    return data<ActionData>({
      result: { initialValue: { ...submission.payload, lines: rows } } as SubmissionResult<string[]>,
    });
  }
  if (submission.status !== "success") {
    return data<ActionData>({ result: submission.reply() }, { status: submission.status === "error" ? 400 : 200 });
  }
  const { value, rowOf } = compactRequest(submission.value);
  const outcome = await requestQuote(user, value, context);
  if (!outcome.ok) {
    const { "": formErrors, ...fieldErrors } = errorsOnRows(outcome.errors, rowOf);
    return data<ActionData>({ result: submission.reply({ formErrors, fieldErrors }) }, { status: outcome.status });
  }
  return redirectWithSuccess(
    quotePath(outcome.quote.id),
    `Quote ${outcome.quote.label} requested: we answer within a working day`,
  );
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function NewQuotePage() {
  const { mayRequest, currency, source, rows, today } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  if (!mayRequest && !actionData) return <NotForYourRole what="Requesting a quote" />;
  return (
    <div className="mx-auto max-w-4xl px-4 py-8">
      <h1 className="text-2xl font-bold">Request a quote</h1>
      <p className="mt-1 text-slate-700">
        Ask us for a price on larger quantities or parts you order often. We send you a quotation you can accept here:
        accepting places the order at the quoted prices.
      </p>
      {source ? (
        <p className="mt-3 rounded border-l-4 border-brand-700 bg-brand-50 p-3 text-sm text-slate-800" role="status">
          The lines of {source} are filled in: change the quantities, add target prices or remove a line before you send
          it.
        </p>
      ) : null}
      <QuoteRequestForm rows={rows} currency={currency} lastResult={actionData?.result} today={today} />
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Request a quote — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
