import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  data as dataWithInit,
} from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { openAccountOrders } from "~/orders/model/payments.server";
import { owedOfAccounts } from "~/orders/model/ledger-reads.server";
import { OwedBothWays } from "~/components/account-owed";
import { getUserById } from "~/models/user.server";
import { getPriceGroup, listPriceGroups } from "~/models/price-group.server";
import { CustomerPricingForm } from "~/components/customer-pricing-form";
import { customerPricingSchema } from "~/forms/pricing-forms";
import { setCustomerPricing, taxInWords } from "~/services/users.server";
import { requireAdmin } from "~/services/guards.server";
import { parseForm, readForm } from "~/services/form.server";
import { formatCents, formatCurrencyName } from "~/format";
import { shopUnpaidCaps } from "~/models/unpaid-caps.server";
import { formatDay, orderStateText, termsWords } from "~/domain/order-states";
import { redirectWithSuccess } from "~/services/toast.server";

const NOT_FOUND = "There is no user with that id.";

/**
 * A customer's record for the shop: who they are, their trade terms and credit, what their account
 * owes and is owed (the ledger of their company), and their open invoices.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const user = await getUserById(params.id ?? "");
  if (!user) throw new Response(NOT_FOUND, { status: 404 });
  const customer = user.role === "customer";
  const [open, groups, owed] = await Promise.all([
    customer ? openAccountOrders(user) : { orders: [] },
    listPriceGroups(),
    customer ? owedOfAccounts([user.companyId]) : null,
  ]);
  return dataWithInit(
    {
      customer: {
        id: user.id,
        name: user.name,
        email: user.email,
        role: user.role,
        companyId: user.companyId,
        company: user.company,
        account: user.account,
        unpaidCaps: user.unpaidCaps,
        pricing: user.pricing,
      },
      groups: groups.map(({ id, name }) => ({ id, name })),
      capDefaults: shopUnpaidCaps(user.emailVerified),
      owed: owed?.get(user.companyId) ?? null,
      open: {
        orders: open.orders.map(({ id, number, state, dueAt, balanceCents, currency }) => ({
          id,
          number,
          state,
          dueAt,
          balanceCents,
          currency,
        })),
      },
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const user = await getUserById(params.id ?? "");
  if (!user) throw new Response(NOT_FOUND, { status: 404 });
  const formData = await readForm(request);
  if (formData.get("intent") === "pricing") return savePricing(formData, user, admin, context);
  // Terms, credit and caps are the company's: set on its record (/dashboard/companies/{id}), not here.
  return dataWithInit(
    { error: "Set payment terms, the credit limit and caps on the company's record (Companies)." },
    { status: 400 },
  );
}

/** The customer's price group and tax details (the account's, so they move with it to a company). */
async function savePricing(
  formData: FormData,
  user: NonNullable<Awaited<ReturnType<typeof getUserById>>>,
  admin: { id: string; email: string },
  context: ActionFunctionArgs["context"],
) {
  const submission = parseForm(formData, { schema: customerPricingSchema });
  const intent = "pricing" as const;
  if (submission.status !== "success") return dataWithInit({ intent, result: submission.reply() }, { status: 400 });
  if (user.role !== "customer") {
    const message = "Price groups and tax details are for customers; this is an admin account.";
    return dataWithInit({ intent, result: submission.reply({ formErrors: [message] }) }, { status: 422 });
  }
  const { priceGroupId, tax } = submission.value;
  const group = priceGroupId ? await getPriceGroup(priceGroupId) : null;
  if (priceGroupId && !group) {
    const reply = submission.reply({ fieldErrors: { priceGroupId: ["That price group no longer exists"] } });
    return dataWithInit({ intent, result: reply }, { status: 422 });
  }
  if (!(await setCustomerPricing(user, { priceGroupId, tax }, { actor: admin, context }))) {
    const reply = submission.reply({ formErrors: ["This account changed meanwhile; reload the page."] });
    return dataWithInit({ intent, result: reply }, { status: 409 });
  }
  return redirectWithSuccess(
    `/dashboard/allUsers/${user.id}`,
    `${user.name}: ${group ? `price group ${group.name}` : "list prices"}, tax ${taxInWords(tax)}`,
  );
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function CustomerPage() {
  const { customer, owed, open, capDefaults, groups } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const pricingReply = reply && "result" in reply && reply.intent === "pricing" ? reply.result : undefined;
  const ordersHref = `/dashboard/manageOrders?q=${encodeURIComponent(customer.email)}`;
  // Terms, credit and caps are the company's, in the currency it buys in.
  const currency = customer.pricing.currency;
  const money = (cents: number) => formatCents(cents, { currency });
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <p>
        <Link to="/dashboard/allUsers" className="font-medium text-brand-700 underline">
          All Users
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-bold">{customer.name}</h1>
      <dl className="mt-3 grid gap-x-4 gap-y-1 sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium text-slate-700">Email</dt>
        <dd className="break-all">{customer.email}</dd>
        <dt className="font-medium text-slate-700">Role</dt>
        <dd>{customer.role === "admin" ? "Admin" : "Customer"}</dd>
        {customer.company.companyName ? (
          <>
            <dt className="font-medium text-slate-700">Company</dt>
            <dd>{customer.company.companyName}</dd>
          </>
        ) : null}
        {customer.role === "customer" ? (
          <>
            <dt className="font-medium text-slate-700">Currency</dt>
            <dd data-testid="currency">{formatCurrencyName(currency)}</dd>
          </>
        ) : null}
        <dt className="font-medium text-slate-700">Payment terms</dt>
        <dd data-testid="terms">{termsWords(customer.account.termsDays)}</dd>
        <dt className="font-medium text-slate-700">Credit limit</dt>
        <dd data-testid="credit-limit">{money(customer.account.creditLimitCents)}</dd>
        {owed ? (
          <>
            <dt className="font-medium text-slate-700">Open on account</dt>
            <dd>
              <OwedBothWays owed={owed} currency={currency} testId="open-balance" />
              {owed.some((row) => row.owedCents > 0) ? (
                <Link
                  to={`/dashboard/companies/${customer.companyId}#credit-held`}
                  className="inline-flex min-h-11 items-center font-medium text-brand-700 underline md:min-h-6"
                >
                  Pay out their credit on the company&apos;s record
                </Link>
              ) : null}
            </dd>
          </>
        ) : null}
      </dl>
      <p className="mt-2">
        <Link to={ordersHref} className="inline-flex min-h-11 items-center font-medium text-brand-700 underline">
          Their orders in Manage Orders
        </Link>
      </p>

      {open.orders.length ? (
        <section aria-labelledby="open-heading" className="mt-6">
          <h2 id="open-heading" className="text-lg font-semibold">
            Open invoices on account
          </h2>
          <ul className="mt-1 divide-y divide-slate-200 rounded border border-slate-200">
            {open.orders.map((order) => (
              <li key={order.id} className="flex flex-wrap justify-between gap-2 px-3 py-2">
                <Link
                  to={`/dashboard/manageOrders/${order.id}`}
                  className="inline-flex min-h-11 items-center font-medium text-brand-700 underline md:min-h-6"
                >
                  {order.number}
                </Link>
                <span>{orderStateText(order)}</span>
                <span>{formatCents(order.balanceCents, { currency: order.currency })}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {customer.role === "customer" ? (
        <section
          aria-labelledby="terms-heading"
          className="mt-8 rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
        >
          <h2 id="terms-heading" className="text-lg font-semibold">
            Payment terms, credit and caps
          </h2>
          <p className="text-sm text-slate-700" data-testid="terms-on-company">
            They belong to {customer.name}&apos;s company and apply to all its members: set them on the{" "}
            <Link to={`/dashboard/companies/${customer.companyId}`} className="font-medium text-brand-700 underline">
              company&apos;s record
            </Link>
            .
          </p>
          <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
            <dt className="font-medium text-slate-700">Orders awaiting card payment</dt>
            <dd>
              {customer.unpaidCaps.orders ?? `${capDefaults.orders} (shop default)`} at most,{" "}
              {customer.unpaidCaps.valueCents === null
                ? `${money(capDefaults.valueCents)} (shop default)`
                : money(customer.unpaidCaps.valueCents)}{" "}
              in value
            </dd>
          </dl>
        </section>
      ) : null}
      <section
        aria-labelledby="pricing-heading"
        className="mt-8 rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
      >
        <h2 id="pricing-heading" className="text-lg font-semibold">
          Prices and tax
        </h2>
        <p className="text-sm text-slate-600">
          The price group gives this customer its prices everywhere in the shop. The tax details decide the tax on their
          orders: US sales tax by state (none with a certificate on file), EU VAT, or the reverse charge for an EU
          business with a valid VAT number. A placed order keeps its prices and tax.
        </p>
        {customer.role === "customer" ? (
          <CustomerPricingForm reply={pricingReply} groups={groups} current={customer.pricing} />
        ) : (
          <p className="mt-2 text-slate-700">Admins do not order: no prices or tax to set.</p>
        )}
      </section>
      {open.orders.some((order) => order.state === "overdue") ? (
        <p className="mt-4 text-red-800">
          Overdue since {formatDay(open.orders.find((order) => order.state === "overdue")!.dueAt!)}.
        </p>
      ) : null}
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.customer.name ?? "Customer"} — PartsWorks` },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
