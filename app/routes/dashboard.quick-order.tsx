import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { DeliveryFields, deliveryDefaultValues, PaymentChoice } from "~/components/delivery-fields";
import { ErrorList, SubmitButton, TextareaField } from "~/components/forms";
import { deliveryDefaults, saveDeliveryToProfile } from "~/models/address-book.server";
import { checkPadLines, padLinesIntoCart, type PadLineCheck } from "~/models/cart-lines.server";
import { requireCustomer } from "~/utils/auth.server";
import { redirectAfterOrder } from "~/utils/checkout.server";
import { checkoutTerms, placeCustomerOrder } from "~/utils/orders.server";
import { CART_PATH } from "~/utils/cart-forms";
import { formatCents } from "~/utils/misc";
import { MAX_ORDER_LINES } from "~/utils/order-lines";
import { parsePad, QUICK_ORDER_PATH, quickOrderSchema } from "~/utils/quick-order";
import { readForm } from "~/utils/form.server";
import { redirectWithSuccess } from "~/utils/toast.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCustomer(request);
  const { phone, address } = deliveryDefaults(user);
  const terms = await checkoutTerms(user);
  return json({ buyer: { phone, address }, terms }, { headers: { "Cache-Control": "private, no-store" } });
}

type ActionData = {
  result?: SubmissionResult<string[]>;
  checks: PadLineCheck[];
  /** After adding the valid lines to the cart: what is left on the pad, and what happened. */
  remaining?: string;
  message?: string;
  stamp: number;
};

const padTextOf = (checks: PadLineCheck[]) =>
  checks.map((check) => `${check.partNumber} ${check.quantityText}`.trim()).join("\n");

/**
 * Check the pad's lines, put the valid ones into the cart, or order them at once. Nothing is
 * written until the customer asks for the cart or the order; an order needs every line valid.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireCustomer(request);
  const submission = parseWithZod(await readForm(request), { schema: quickOrderSchema });
  const stamp = Date.now();
  if (submission.status !== "success") {
    return json<ActionData>({ result: submission.reply(), checks: [], stamp }, { status: 400 });
  }
  const value = submission.value;
  const checks = await checkPadLines(parsePad(value.lines));
  const broken = checks.filter((check) => check.problem);

  if (value.intent === "check") return json<ActionData>({ result: submission.reply(), checks, stamp });

  if (value.intent === "cart") {
    if (broken.length === checks.length) {
      return json<ActionData>(
        {
          result: submission.reply({ formErrors: ["No line can go into the cart yet: fix the lines marked below"] }),
          checks,
          stamp,
        },
        { status: 400 },
      );
    }
    const { added, notices } = await padLinesIntoCart(user.id, checks);
    if (added === 0) {
      // Nothing went in (stock already in the cart, or no room): the pad keeps every line.
      return json<ActionData>({
        checks,
        remaining: padTextOf(checks),
        message: ["Nothing could go into your cart.", ...notices].join(" "),
        stamp,
      });
    }
    const message = `${added} ${added === 1 ? "line" : "lines"} added to your cart`;
    if (broken.length === 0 && added > 0) {
      return redirectWithSuccess(CART_PATH, notices.length ? { message, description: notices.join(" ") } : message);
    }
    // The valid lines are in the cart; the pad keeps only what still needs fixing.
    return json<ActionData>({
      checks: broken,
      remaining: padTextOf(broken),
      message: [`${message}. Fix the lines below and add them too.`, ...notices].join(" "),
      stamp,
    });
  }

  if (broken.length) {
    const count = broken.length === 1 ? "the line" : `the ${broken.length} lines`;
    return json<ActionData>(
      { result: submission.reply({ formErrors: [`Fix ${count} marked below before ordering`] }), checks, stamp },
      { status: 400 },
    );
  }
  const placed = await placeCustomerOrder({
    lines: checks.map((check) => ({ partId: check.part!.id, quantity: check.quantity! })),
    phone: value.phone,
    address: value.address,
    poNumber: value.poNumber,
    user,
    payment: value.payment,
  });
  if (!placed.ok && "payment" in placed) {
    return json<ActionData>(
      { result: submission.reply({ fieldErrors: { payment: [placed.payment.message] } }), checks, stamp },
      { status: placed.payment.status },
    );
  }
  if (!placed.ok) {
    if (placed.refusal) {
      return json<ActionData>(
        { result: submission.reply({ formErrors: [placed.refusal] }), checks, stamp },
        { status: 409 },
      );
    }
    // Stock or a part changed between the check and the order: say so on each line.
    for (const failure of placed.failures) checks[failure.index].problem = failure;
    return json<ActionData>(
      { result: submission.reply({ formErrors: ["Nothing was ordered: fix the lines marked below"] }), checks, stamp },
      { status: 409 },
    );
  }
  if (value.saveAddress) await saveDeliveryToProfile(user.id, value);
  return redirectAfterOrder(placed.order);
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

const EXAMPLE = "PW-1001 150\nPW-1003\t200\nPW-1005, 100";

export default function QuickOrder() {
  const { buyer, terms } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>() as ActionData | undefined;
  const navigation = useNavigation();
  const pendingIntent = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const [form, fields] = useForm({
    id: `quick-order-${data?.remaining !== undefined ? data.stamp : "pad"}`,
    lastResult: data?.result,
    constraint: getZodConstraint(quickOrderSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    defaultValue: { lines: data?.remaining ?? "", ...deliveryDefaultValues(buyer) },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: quickOrderSchema }),
  });
  const checks = data?.checks ?? [];
  const valid = checks.filter((check) => !check.problem);
  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <h1 className="text-2xl font-bold">Quick order</h1>
      <p className="mt-1 text-slate-700">
        One line per part: the part number, then the quantity, separated by a space, a tab, a comma or a semicolon.
        Paste two columns from a spreadsheet as they are. Up to {MAX_ORDER_LINES} lines; the same part number twice is
        added up.
      </p>
      {data?.message ? (
        <p role="status" className="mt-4 rounded border-l-4 border-green-700 bg-green-50 p-3 text-green-900">
          {data.message}{" "}
          <Link to={CART_PATH} className="font-medium underline">
            Go to your cart
          </Link>
        </p>
      ) : null}
      <Form method="post" action={QUICK_ORDER_PATH} className="mt-4 grid gap-6 lg:grid-cols-2" {...getFormProps(form)}>
        <div>
          <TextareaField
            meta={fields.lines}
            label="Part numbers and quantities"
            textareaProps={{ rows: 12, placeholder: EXAMPLE, spellCheck: false }}
          />
          <div className="flex flex-wrap gap-3">
            <SubmitButton
              name="intent"
              value="check"
              variant="secondary"
              pending={pendingIntent === "check"}
              pendingText="Checking…"
            >
              Check the lines
            </SubmitButton>
            <SubmitButton name="intent" value="cart" pending={pendingIntent === "cart"} pendingText="Adding…">
              Add the valid lines to the cart
            </SubmitButton>
          </div>
        </div>
        <section
          aria-labelledby="order-now-heading"
          className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
        >
          <h2 id="order-now-heading" className="text-xl font-semibold">
            Or order them at once
          </h2>
          <p className="mt-1 text-sm text-slate-600">Every line must be valid. One order, paid with one payment.</p>
          <div className="mt-4">
            <DeliveryFields fields={fields} />
            <PaymentChoice meta={fields.payment} terms={terms} />
          </div>
          <SubmitButton
            name="intent"
            value="order"
            pending={pendingIntent === "order"}
            pendingText="Placing the order…"
            className="w-full"
          >
            Order now
          </SubmitButton>
        </section>
        <div className="lg:col-span-2">
          <ErrorList id={form.errorId} errors={form.errors} />
        </div>
      </Form>
      {checks.length ? <CheckedLines checks={checks} valid={valid} /> : null}
    </div>
  );
}

function CheckedLines({ checks, valid }: { checks: PadLineCheck[]; valid: PadLineCheck[] }) {
  const total = valid.reduce((sum, check) => sum + (check.lineTotalCents ?? 0), 0);
  const broken = checks.length - valid.length;
  return (
    <section aria-labelledby="checked-heading" className="mt-8">
      <h2 id="checked-heading" className="text-xl font-semibold">
        Checked lines
      </h2>
      <p className="mt-1 text-slate-700" data-testid="pad-summary">
        {valid.length} valid {valid.length === 1 ? "line" : "lines"} ({formatCents(total)})
        {broken ? `, ${broken} to fix` : ""}.
      </p>
      <div className="mt-2 overflow-x-auto">
        <table className="min-w-full divide-y divide-slate-200 text-left text-sm">
          <caption className="sr-only">Each line of the pad, checked</caption>
          <thead className="bg-slate-100 text-slate-800">
            <tr>
              {["Line", "Part number", "Part", "Quantity", "Unit price", "Line total", "Check"].map((label) => (
                <th key={label} scope="col" className="px-3 py-2 font-semibold">
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {checks.map((check) => (
              <tr key={check.lineNumbers[0]} data-testid={`pad-line-${check.partNumber}`}>
                <td className="px-3 py-2">{check.lineNumbers.join(", ")}</td>
                <th scope="row" className="px-3 py-2 font-mono font-medium">
                  {check.partNumber}
                </th>
                <td className="px-3 py-2">{check.part?.name ?? "—"}</td>
                <td className="px-3 py-2">{check.quantity?.toLocaleString("en-US") ?? check.quantityText}</td>
                <td className="px-3 py-2">{check.part ? formatCents(check.part.priceCents) : "—"}</td>
                <td className="px-3 py-2">{check.lineTotalCents !== null ? formatCents(check.lineTotalCents) : "—"}</td>
                <td
                  className={`px-3 py-2 ${check.problem ? "text-red-700" : "text-green-800"}`}
                  data-testid="pad-check"
                >
                  {check.problem
                    ? check.problem.message
                    : check.lineNumbers.length > 1
                      ? `OK (lines ${check.lineNumbers.join(" and ")} merged)`
                      : "OK"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Quick order — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
