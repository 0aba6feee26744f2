import type { SubmissionResult } from "@conform-to/react";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { CurrencyPicker } from "~/components/currency-picker";
import { safeRedirect } from "~/domain/safe-redirect";
import { currencyOf } from "~/domain/money";
import { displayCurrencySchema } from "~/forms/currency-forms";
import { rememberCurrency, shownCurrency } from "~/services/display-currency.server";
import { parseForm, readForm } from "~/services/form.server";
import { getUser } from "~/services/guards.server";

/** The "Prices in" picker on a page of its own: where a refused choice is shown, next to the field. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getUser(request);
  // A customer buys in their company's currency: the page says which, and where it is set.
  const customer = user?.role === "customer";
  const current = await shownCurrency(request, user);
  return data({ current, customer }, { headers: { "Cache-Control": "private, no-store" } });
}

/** Remembers the visitor's choice and goes back to the page it was made on. */
export async function action({ request }: ActionFunctionArgs) {
  const submission = parseForm(await readForm(request), { schema: displayCurrencySchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply() as SubmissionResult<string[]> }, { status: 400 });
  }
  const { currency, redirectTo } = submission.value;
  return redirect(safeRedirect(redirectTo, "/parts"), {
    headers: { "Set-Cookie": await rememberCurrency(currencyOf(currency)) },
  });
}

export default function CurrencyPage() {
  const { current, customer } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <h1 className="mb-4 text-2xl font-bold text-slate-900">Prices in your currency</h1>
      <p className="mb-6 text-slate-700">
        Parts are priced in US dollars, euros and pounds sterling. A part without a price in the currency you choose is
        shown as not sold in it; nothing is converted.
      </p>
      <CurrencyPicker current={current} customer={customer} lastResult={actionData?.result ?? null} />
      {customer ? (
        <p className="mt-4 text-slate-700">
          Your company&apos;s owner chooses it on{" "}
          <Link to="/dashboard/company" className="text-brand-700 underline">
            Company
          </Link>{" "}
          before the first order; after that, ask us to change it.
        </p>
      ) : null}
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Prices in your currency — PartsWorks" }];
