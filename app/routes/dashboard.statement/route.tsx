import { getFormProps, useForm } from "@conform-to/react";
import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  data,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ErrorList, SubmitButton } from "~/components/forms";
import { DataTable, type Column } from "~/components/ui/data-table";
import { CURRENCIES } from "~/content/currencies";
import { bankDetailsSentence } from "~/domain/bank-accounts";
import { creditNotePath } from "~/domain/credit-notes";
import { orderPath } from "~/domain/order-lines";
import { DAY_MS, statementPeriodSchema } from "~/domain/statement";
import { formatCents, formatDate } from "~/format";
import { accountCredits } from "~/orders/model/account-credit.server";
import { askForPayout } from "~/orders/payout-requests.server";
import { statementView } from "~/orders/statement-document.server";
import { can } from "~/services/companies.server";
import { parseForm, readForm } from "~/services/form.server";
import { requireCustomer } from "~/services/guards.server";
import { redirectWithSuccess } from "~/services/toast.server";
import { PeriodForm, StatementBody } from "./statement-view";

const FOR_FINANCE = "The company's statement is for its owners and accounts.";

/** The payout request (also posted from an order's page): `intent=ask-payout`, nothing else. */
const askPayoutSchema = z.object({ intent: z.literal("ask-payout") });

/**
 * The customer's statement of account, from the ledger: opening balance, every entry with its
 * document and the running balance, closing balance, ageing, for a period (?from=&to=).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCustomer(request);
  if (!can(user, "finance")) throw new Response(FOR_FINANCE, { status: 403 });
  const submission = parseForm(new URL(request.url).searchParams, { schema: statementPeriodSchema });
  const headers = { "Cache-Control": "private, no-store" };
  const credits = await accountCredits(user);
  if (submission.status !== "success") {
    // A bad date is told next to its field; nothing is guessed in its place.
    return data(
      { result: submission.reply(), view: null, creditNotes: credits.notes, mayAskPayout: false },
      {
        status: 400,
        headers,
      },
    );
  }
  const view = await statementView(user.companyId, submission.value, user.company.companyName || user.name);
  if (!view) throw new Response("We could not find your company's account.", { status: 404 });
  // The statement in the currency the company buys in (the first): what the figures below name.
  const [statement] = view.statements;
  const upToNow = !submission.value.to || Date.parse(`${submission.value.to}T00:00:00Z`) + DAY_MS > Date.now();
  return data(
    {
      result: submission.reply(),
      view,
      creditNotes: credits.notes,
      // The balance now, in credit in any currency: the customer may ask for it by bank.
      mayAskPayout: upToNow && view.statements.some((each) => each.closingCents < 0),
      // As the statement said before it was read from the ledger (the API's and older readers' names),
      // in `currency`; `view.statements` has every currency's.
      currency: statement.currency,
      balanceCents: statement.closingCents,
      overdueCents: statement.overdueCents,
      accountCreditCents: statement.owedCents,
      orders: view.statements.flatMap((each) =>
        each.openInvoices.map((invoice) => ({
          id: invoice.orderId,
          number: view.orders[invoice.orderId]?.number ?? invoice.document,
          invoicedAt: invoice.invoicedAt,
          dueAt: invoice.dueAt,
          balanceCents: invoice.openCents,
          currency: each.currency,
        })),
      ),
    },
    { headers },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireCustomer(request);
  if (!can(user, "finance")) throw new Response(FOR_FINANCE, { status: 403 });
  const submission = parseForm(await readForm(request), { schema: askPayoutSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const asked = await askForPayout(user, context);
  if (!asked.ok) return data({ result: submission.reply({ formErrors: [asked.message] }) }, { status: 409 });
  return redirectWithSuccess(
    "/dashboard/statement",
    `We have your request: we will pay the ${formatCents(asked.amountCents, { currency: asked.currency })} we owe you to your bank and email you when it is sent.`,
  );
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

const CREDIT_COLUMNS: Column[] = [
  { label: "Credit note" },
  { label: "Issued" },
  { label: "Order" },
  { label: "Where the money went" },
  { label: "Credited", align: "right" },
];

/** "Ask us to pay it out": one button; its answer comes back as a toast (or the reason, here). */
function AskPayout() {
  const reply = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form] = useForm({ id: "ask-payout", lastResult: navigation.state === "idle" ? reply?.result : null });
  return (
    <Form method="post" {...getFormProps(form)} className="mt-3">
      <p className="text-sm text-slate-700">It comes off your next invoices, or we pay it to your bank when you ask.</p>
      <input type="hidden" name="intent" value="ask-payout" />
      <SubmitButton
        className="mt-2"
        variant="secondary"
        pending={navigation.state === "submitting" && navigation.formData?.get("intent") === "ask-payout"}
        pendingText="Asking…"
      >
        Ask us to pay it out
      </SubmitButton>
      <ErrorList id={form.errorId} errors={form.errors} />
    </Form>
  );
}

export default function Statement() {
  const { result, view, creditNotes, mayAskPayout } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <h1 className="text-2xl font-bold">Statement of account</h1>
      <PeriodForm result={result} />
      {view ? (
        <StatementBody data={view} downloadPath="/dashboard/statement" orderHref={orderPath}>
          {mayAskPayout ? <AskPayout /> : null}
        </StatementBody>
      ) : (
        <p className="mt-4 text-slate-700" data-testid="statement-bad-period">
          Correct the dates above to see the statement.
        </p>
      )}
      {!mayAskPayout && reply?.result.error?.[""] ? (
        <p role="alert" className="mt-3 font-medium text-red-800">
          {reply.result.error[""].join(" ")}
        </p>
      ) : null}
      {creditNotes.length ? (
        <DataTable caption="Credit notes, newest first" className="mt-8" columns={CREDIT_COLUMNS}>
          {creditNotes.map((note) => (
            <tr key={note.id} data-testid="statement-credit-note">
              <th scope="row" className="px-3 py-2 font-medium">
                <Link
                  to={creditNotePath(note.orderId, note.number)}
                  className="inline-flex min-h-11 items-center text-brand-700 underline md:min-h-6"
                >
                  {note.number}
                </Link>
              </th>
              <td className="px-3 py-2" data-label="Issued">
                {formatDate(note.issuedAt)}
              </td>
              <td className="px-3 py-2" data-label="Order">
                <Link
                  to={orderPath(note.orderId)}
                  className="inline-flex min-h-11 items-center text-brand-700 underline md:min-h-6"
                >
                  {note.orderNumber}
                </Link>
              </td>
              <td className="px-3 py-2" data-label="Where the money went">
                {note.settled}
              </td>
              <td className="px-3 py-2 text-right font-medium" data-label="Credited">
                {formatCents(note.totalCents, { currency: note.currency })}
              </td>
            </tr>
          ))}
        </DataTable>
      ) : null}
      <section className="mt-8 text-sm text-slate-700" aria-labelledby="pay-heading">
        <h2 id="pay-heading" className="font-semibold text-slate-900">
          How to pay
        </h2>
        {(view?.statements ?? []).map((statement) => (
          <p key={statement.currency} data-testid="statement-pay-to" data-currency={statement.currency}>
            {view && view.statements.length > 1 ? `In ${CURRENCIES[statement.currency].plural}, by` : "By"} bank
            transfer to our {statement.currency} account: {bankDetailsSentence(statement.currency)}.
          </p>
        ))}
        <p>Quote the order number (SO-…) as the reference.</p>
      </section>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Statement of account — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
