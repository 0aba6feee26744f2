import { getFormProps, getSelectProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ErrorList, Field, SubmitButton, useIsPending } from "~/components/forms";
import { openAccountOrders } from "~/models/order.server";
import { UnpaidCapsForm } from "~/components/hold-forms";
import { getUserById, setAccountTerms, setPriceGroup, setTaxProfile, setUnpaidCaps } from "~/models/user.server";
import { getPriceGroup, listPriceGroups } from "~/models/price-group.server";
import { CustomerPricingForm } from "~/components/customer-pricing-form";
import { customerPricingSchema } from "~/utils/pricing-forms";
import { accountTermsSchema } from "~/utils/account-terms";
import { audit } from "~/utils/audit-trail.server";
import { requireAdmin } from "~/utils/guards.server";
import { readForm } from "~/utils/form.server";
import { unpaidCapsSchema } from "~/utils/hold-forms";
import { formatCents } from "~/domain/format";
import { shopUnpaidCaps } from "~/models/unpaid-caps.server";
import { formatDay, orderStateText, PAYMENT_TERMS, termsWords } from "~/domain/order-states";
import { redirectWithSuccess } from "~/utils/toast.server";

const NOT_FOUND = "There is no user with that id.";

/** A customer's record for the shop: who they are, their trade terms and credit, what is open on account. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const user = await getUserById(params.id ?? "");
  if (!user) throw new Response(NOT_FOUND, { status: 404 });
  const [open, groups] = await Promise.all([
    user.role === "customer" ? openAccountOrders(user) : { orders: [], balanceCents: 0 },
    listPriceGroups(),
  ]);
  return json(
    {
      customer: {
        id: user.id,
        name: user.name,
        email: user.email,
        role: user.role,
        company: user.company,
        account: user.account,
        unpaidCaps: user.unpaidCaps,
        pricing: user.pricing,
      },
      groups: groups.map(({ id, name }) => ({ id, name })),
      capDefaults: shopUnpaidCaps(user.emailVerified),
      open: {
        balanceCents: open.balanceCents,
        orders: open.orders.map(({ id, number, state, dueAt, balanceCents }) => ({
          id,
          number,
          state,
          dueAt,
          balanceCents,
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
  if (formData.get("intent") === "unpaid-caps") return saveUnpaidCaps(formData, user, admin, context);
  if (formData.get("intent") === "pricing") return savePricing(formData, user, admin, context);
  const submission = parseWithZod(formData, { schema: accountTermsSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  if (user.role !== "customer") {
    return json(
      submission.reply({ fieldErrors: { termsDays: ["Payment terms are for customers; this is an admin account."] } }),
      { status: 422 },
    );
  }
  const terms = { termsDays: submission.value.termsDays, creditLimitCents: submission.value.creditLimit * 100 };
  if (!(await setAccountTerms(user.id, terms))) {
    return json(submission.reply({ formErrors: ["This account changed meanwhile; reload the page."] }), {
      status: 409,
    });
  }
  await audit({
    context,
    actor: admin,
    action: "user.set-terms",
    target: { type: "user", id: user.id, label: user.email },
    before: { terms: termsWords(user.account.termsDays), creditLimitCents: user.account.creditLimitCents },
    after: { terms: termsWords(terms.termsDays), creditLimitCents: terms.creditLimitCents },
  });
  return redirectWithSuccess(
    `/dashboard/allUsers/${user.id}`,
    `${user.name}: ${termsWords(terms.termsDays)}, credit limit ${formatCents(terms.creditLimitCents)}`,
  );
}

/** The customer's own caps on orders awaiting card payment (empty fields: the shop's defaults). */
async function saveUnpaidCaps(
  formData: FormData,
  user: NonNullable<Awaited<ReturnType<typeof getUserById>>>,
  admin: { id: string; email: string },
  context: ActionFunctionArgs["context"],
) {
  const submission = parseWithZod(formData, { schema: unpaidCapsSchema });
  const intent = "unpaid-caps" as const;
  if (submission.status !== "success") return json({ intent, result: submission.reply() }, { status: 400 });
  if (user.role !== "customer") {
    const message = "Caps on unpaid orders are for customers; this is an admin account.";
    return json({ intent, result: submission.reply({ formErrors: [message] }) }, { status: 422 });
  }
  const caps = {
    orders: submission.value.orders ?? null,
    valueCents: submission.value.value === undefined ? null : submission.value.value * 100,
  };
  if (!(await setUnpaidCaps(user.id, caps))) {
    return json(
      { intent, result: submission.reply({ formErrors: ["This account changed meanwhile; reload the page."] }) },
      { status: 409 },
    );
  }
  const words = (c: { orders: number | null; valueCents: number | null }) =>
    `${c.orders ?? "default"} orders, ${c.valueCents === null ? "default value" : formatCents(c.valueCents)}`;
  await audit({
    context,
    actor: admin,
    action: "user.unpaid-caps",
    target: { type: "user", id: user.id, label: user.email },
    before: { caps: words(user.unpaidCaps) },
    after: { caps: words(caps) },
  });
  return redirectWithSuccess(`/dashboard/allUsers/${user.id}`, `${user.name} may hold unpaid: ${words(caps)}`);
}

/** The customer's price group and tax details (the account's, so they move with it to a company). */
async function savePricing(
  formData: FormData,
  user: NonNullable<Awaited<ReturnType<typeof getUserById>>>,
  admin: { id: string; email: string },
  context: ActionFunctionArgs["context"],
) {
  const submission = parseWithZod(formData, { schema: customerPricingSchema });
  const intent = "pricing" as const;
  if (submission.status !== "success") return json({ intent, result: submission.reply() }, { status: 400 });
  if (user.role !== "customer") {
    const message = "Price groups and tax details are for customers; this is an admin account.";
    return json({ intent, result: submission.reply({ formErrors: [message] }) }, { status: 422 });
  }
  const { priceGroupId, tax } = submission.value;
  const group = priceGroupId ? await getPriceGroup(priceGroupId) : null;
  if (priceGroupId && !group) {
    const reply = submission.reply({ fieldErrors: { priceGroupId: ["That price group no longer exists"] } });
    return json({ intent, result: reply }, { status: 422 });
  }
  // Two single-field updates of the same account: each is atomic, and either alone leaves a valid account.
  if (!(await setPriceGroup(user.id, priceGroupId)) || !(await setTaxProfile(user.id, tax))) {
    const reply = submission.reply({ formErrors: ["This account changed meanwhile; reload the page."] });
    return json({ intent, result: reply }, { status: 409 });
  }
  const words = (t: typeof tax) =>
    t ? [t.country, t.state, t.vatNumber, t.exemptionCertificate].filter(Boolean).join(" ") : "not recorded";
  await audit({
    context,
    actor: admin,
    action: "user.set-pricing",
    target: { type: "user", id: user.id, label: user.email },
    before: { priceGroupId: user.pricing.priceGroupId, tax: words(user.pricing.tax) },
    after: { priceGroupId, tax: words(tax) },
  });
  return redirectWithSuccess(
    `/dashboard/allUsers/${user.id}`,
    `${user.name}: ${group ? `price group ${group.name}` : "list prices"}, tax ${words(tax)}`,
  );
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function CustomerPage() {
  const { customer, open, capDefaults, groups } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const capsReply = reply && "result" in reply && reply.intent === "unpaid-caps" ? reply : undefined;
  const pricingReply = reply && "result" in reply && reply.intent === "pricing" ? reply.result : undefined;
  const lastResult = reply && !("result" in reply) ? reply : undefined;
  const [form, fields] = useForm({
    id: "account-terms",
    lastResult,
    constraint: getZodConstraint(accountTermsSchema),
    defaultValue: {
      termsDays: String(customer.account.termsDays),
      creditLimit: String(customer.account.creditLimitCents / 100),
    },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: accountTermsSchema }),
  });
  const isPending = useIsPending();
  const ordersHref = `/dashboard/manageOrders?q=${encodeURIComponent(customer.email)}`;
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
        <dt className="font-medium text-slate-700">Payment terms</dt>
        <dd data-testid="terms">{termsWords(customer.account.termsDays)}</dd>
        <dt className="font-medium text-slate-700">Credit limit</dt>
        <dd data-testid="credit-limit">{formatCents(customer.account.creditLimitCents)}</dd>
        <dt className="font-medium text-slate-700">Open on account</dt>
        <dd data-testid="open-balance">{formatCents(open.balanceCents)}</dd>
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
                <Link to={`/dashboard/manageOrders/${order.id}`} className="font-medium text-brand-700 underline">
                  {order.number}
                </Link>
                <span>{orderStateText(order)}</span>
                <span>{formatCents(order.balanceCents)}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section
        aria-labelledby="terms-heading"
        className="mt-8 rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
      >
        <h2 id="terms-heading" className="text-lg font-semibold">
          Payment terms and credit
        </h2>
        <p className="text-sm text-slate-600">
          With terms, the customer may order on account: confirmed at once, invoiced, due after the net days, while what
          is open stays within the credit limit.
        </p>
        <Form method="post" {...getFormProps(form)} className="mt-4 grid gap-x-4 sm:grid-cols-2">
          <div>
            <label htmlFor={fields.termsDays.id} className="mb-1 block text-sm font-medium text-slate-800">
              Terms
            </label>
            <select
              {...getSelectProps(fields.termsDays)}
              key={fields.termsDays.key}
              className="block min-h-11 w-full rounded border border-slate-400 bg-white px-3 py-2"
            >
              {PAYMENT_TERMS.map((days) => (
                <option key={days} value={String(days)}>
                  {termsWords(days)}
                </option>
              ))}
            </select>
            <ErrorList id={fields.termsDays.errorId} errors={fields.termsDays.errors} />
          </div>
          <Field
            meta={fields.creditLimit}
            label="Credit limit (whole dollars)"
            type="number"
            inputProps={{ min: 0, step: 1, inputMode: "numeric" }}
          />
          <ErrorList id={form.errorId} errors={form.errors} />
          <div className="sm:col-span-2">
            <SubmitButton pending={isPending} pendingText="Saving…">
              Save terms
            </SubmitButton>
          </div>
        </Form>
      </section>
      <section
        aria-labelledby="caps-heading"
        className="mt-8 rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
      >
        <h2 id="caps-heading" className="text-lg font-semibold">
          Orders awaiting card payment
        </h2>
        <p className="text-sm text-slate-600">
          How much this customer may hold unpaid at once: each unpaid card order keeps its stock from other buyers until
          it is paid or its hold runs out. Orders on account are bounded by the credit limit instead.
        </p>
        <UnpaidCapsForm reply={capsReply} caps={customer.unpaidCaps} defaults={capDefaults} />
      </section>
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
