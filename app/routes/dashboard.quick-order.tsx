import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useMoney } from "~/components/money";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  data as dataWithInit,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { DeliveryFields, deliveryDefaultValues, PaymentChoice, useDeliveryPlace } from "~/components/delivery-fields";
import { ErrorList, SubmitButton, TextareaField } from "~/components/forms";
import { CheckedLines } from "~/components/quick-order-lines";
import { deliveryDefaults } from "~/models/address-book.server";
import { notPlacedReply } from "~/orders/place-replies.server";
import { padLinesIntoCart } from "~/models/cart-lines.server";
import { getUser, requireCustomer } from "~/services/guards.server";
import { MAX_KEPT_PAD_CHARACTERS, signInToContinue, takeKeptPad } from "~/services/sign-in-intent.server";
import { spendingLimitFor } from "~/services/spending-limit.server";
import { SpendingLimitNotice } from "~/components/spending-limit";
import { NotForYourRole } from "~/components/role-refusal";
import { pricePadChecks } from "~/services/pricing.server";
import { redirectAfterOrder } from "~/orders/checkout-redirects.server";
import { ACCOUNTS_CANNOT_ORDER, checkoutTerms, placeCustomerOrder } from "~/orders/service.server";
import { can } from "~/services/companies.server";
import { CART_PATH } from "~/forms/cart-forms";
import { NEW_QUOTE_PATH } from "~/forms/quote-forms";
import { placeWords, taxLinesFor, taxPlaceFor, taxTotal } from "~/domain/tax";
import { customerPricing } from "~/services/pricing.server";
import { MAX_ORDER_LINES } from "~/domain/order-lines";
import { MAX_PAD_CHARACTERS, parsePad, QUICK_ORDER_PATH, quickOrderSchema } from "~/forms/quick-order";
import { checkPadLines, type PadLineCheck } from "~/services/quick-order.server";
import { normalisePartNumber } from "~/services/part-number.server";
import { parseForm, readForm } from "~/services/form.server";
import { newOneTimeKey, runOnce } from "~/services/one-time-key.server";
import { ONE_TIME_KEY_FIELD } from "~/forms/one-time-key";
import { redirectWithSuccess } from "~/services/toast.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCustomer(request);
  const { phone, delivery, addressId, confirmAddress } = deliveryDefaults(user);
  const [terms, pricing] = await Promise.all([checkoutTerms(user), customerPricing(user)]);
  // Lines typed before a sign-in came back: they fill the pad again, once.
  const kept = await takeKeptPad(request);
  return dataWithInit(
    {
      buyer: { phone, delivery, addressId, confirmAddress },
      terms,
      taxProfile: pricing.tax,
      keptLines: kept.lines,
      limit: await spendingLimitFor(user),
      mayOrder: can(user, "order"),
      // "Order now" carries a one-time key: the same order sent twice places one order.
      oneTimeKey: newOneTimeKey(),
    },
    { headers: { "Cache-Control": "private, no-store", ...(kept.setCookie ? { "Set-Cookie": kept.setCookie } : {}) } },
  );
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
 * The reply for a pad the server rewrote (a line rounded up, the lines the cart took taken off): an
 * update of `lines` puts the new text in the pad, with JavaScript or without, and leaves every other field as typed.
 */
const padNowReads = (result: SubmissionResult<string[]>, lines: string): SubmissionResult<string[]> => ({
  ...result,
  intent: { type: "update", payload: { name: "lines", value: lines } },
});

/** The pad with the line of `partNumber` (below its minimum) raised to the minimum; null when there is none. */
async function roundUpLine(formData: FormData, partNumber: string | null) {
  const lines = formData.get("lines");
  if (!partNumber || formData.get("intent") !== "check" || typeof lines !== "string") return null;
  if (lines.length > MAX_PAD_CHARACTERS) return null;
  const entries = parsePad(lines);
  if (entries.length > MAX_ORDER_LINES) return null;
  const checks = await checkPadLines(entries);
  const target = checks.find(
    (check) =>
      normalisePartNumber(check.partNumber) === normalisePartNumber(partNumber) &&
      check.problem?.reason === "below-minimum",
  );
  if (!target?.part) return null;
  const minimum = String(target.part.minOrderQuantity);
  return padTextOf(checks.map((check) => (check === target ? { ...check, quantityText: minimum } : check)));
}

/**
 * Check the pad's lines, put the valid ones into the cart, or order them at once. Nothing is
 * written until the customer asks for the cart or the order; an order needs every line valid.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (!(await getUser(request))) {
    // Signed out while typing: the pad's lines wait through the sign-in and come back on the pad.
    const lines = (await readForm(request)).get("lines");
    const keep = typeof lines === "string" && lines.trim() && lines.length <= MAX_KEPT_PAD_CHARACTERS;
    return signInToContinue(request, keep ? { kind: "pad", lines } : null, QUICK_ORDER_PATH);
  }
  const user = await requireCustomer(request);
  return runOnce(
    request,
    {
      ownerId: user.id,
      operation: "order:quick-order",
      when: (form) => form.get("intent") === "order",
      shape: (result) => ({ result, checks: [], stamp: Date.now() }),
    },
    () => quickOrderAction(request, user),
  );
}

async function quickOrderAction(request: Request, user: Awaited<ReturnType<typeof requireCustomer>>) {
  const formData = await readForm(request);
  if (!can(user, "order")) {
    // Said above the form, with every line and field as typed.
    const refused = parseForm(formData, { schema: quickOrderSchema }).reply({ formErrors: [ACCOUNTS_CANNOT_ORDER] });
    return dataWithInit<ActionData>({ result: refused, checks: [], stamp: Date.now() }, { status: 403 });
  }
  // "Round up to N" on a checked line: that line's quantity becomes its part's minimum, then all is checked again.
  const roundedPad = await roundUpLine(formData, new URL(request.url).searchParams.get("roundUp"));
  if (roundedPad !== null) formData.set("lines", roundedPad);
  const submission = parseForm(formData, { schema: quickOrderSchema });
  const stamp = Date.now();
  if (submission.status !== "success") {
    return dataWithInit<ActionData>({ result: submission.reply(), checks: [], stamp }, { status: 400 });
  }
  const value = submission.value;
  // Each line at this customer's price (group, volume break): what the pad shows and the cart will charge.
  const checks = await pricePadChecks(user, await checkPadLines(parsePad(value.lines)));
  const broken = checks.filter((check) => check.problem);

  if (value.intent === "check") {
    // A rounded-up pad is shown as the new text of the pad.
    const remaining = roundedPad ?? undefined;
    const result = remaining === undefined ? submission.reply() : padNowReads(submission.reply(), remaining);
    return dataWithInit<ActionData>({ result, checks, remaining, stamp });
  }

  if (value.intent === "cart") {
    if (broken.length === checks.length) {
      return dataWithInit<ActionData>(
        {
          result: submission.reply({ formErrors: ["No line can go into the cart yet: fix the lines marked below"] }),
          checks,
          stamp,
        },
        { status: 400 },
      );
    }
    const { added, notices } = await padLinesIntoCart(
      user.id,
      checks.flatMap((check) =>
        check.part && !check.problem && check.quantity ? [{ partId: check.part.id, quantity: check.quantity }] : [],
      ),
    );
    if (added === 0) {
      // Nothing went in (stock already in the cart, or no room): the pad keeps every line.
      return dataWithInit<ActionData>({
        result: padNowReads(submission.reply(), padTextOf(checks)),
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
    return dataWithInit<ActionData>({
      result: padNowReads(submission.reply(), padTextOf(broken)),
      checks: broken,
      remaining: padTextOf(broken),
      message: [`${message}. Fix the lines below and add them too.`, ...notices].join(" "),
      stamp,
    });
  }

  if (broken.length) {
    const count = broken.length === 1 ? "the line" : `the ${broken.length} lines`;
    return dataWithInit<ActionData>(
      { result: submission.reply({ formErrors: [`Fix ${count} marked below before ordering`] }), checks, stamp },
      { status: 400 },
    );
  }
  const placed = await placeCustomerOrder({
    lines: checks.map((check) => ({ partId: check.part!.id, quantity: check.quantity! })),
    phone: value.phone,
    delivery: value.delivery,
    quotedTotalCents: value.quotedTotalCents,
    poNumber: value.poNumber,
    user,
    payment: value.payment,
    remember: { addressId: value.addressId, save: value.saveAddress },
  });
  if (!placed.ok) {
    const { result, status } = notPlacedReply(submission, placed, (failures) => {
      // Stock or a part changed between the check and the order: said on each line.
      for (const failure of failures) checks[failure.index].problem = failure;
      return { formErrors: ["Nothing was ordered: fix the lines marked below"] };
    });
    return dataWithInit<ActionData>({ result, checks, stamp }, { status });
  }
  return redirectAfterOrder(placed.order);
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

const EXAMPLE = "PW-1001 150\nPW-1003\t200\nPW-1005, 100";

export default function QuickOrder() {
  const money = useMoney();
  const { buyer, terms, taxProfile, keptLines, limit, mayOrder, oneTimeKey } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>() as ActionData | undefined;
  const navigation = useNavigation();
  const pendingIntent = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const [form, fields] = useForm({
    // One form for good: a new id would reset every field to its default, the pad emptied with them.
    id: "quick-order",
    lastResult: data?.result,
    constraint: getZodConstraint(quickOrderSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    defaultValue: { lines: keptLines ?? "", ...deliveryDefaultValues(buyer) },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: quickOrderSchema }),
  });
  const checks = data?.checks ?? [];
  const valid = checks.filter((check) => !check.problem);
  // The checked lines' total with the tax for the address the form holds now, as the server prices it.
  const [place, setPlace] = useDeliveryPlace(fields.delivery);
  const netCents = valid.reduce((sum, check) => sum + (check.lineTotalCents ?? 0), 0);
  const taxPlace = taxPlaceFor(taxProfile, place);
  const taxLines = taxLinesFor(taxProfile, netCents, taxPlace);
  const totalCents = netCents + taxTotal(taxLines);
  const priced = valid.length > 0 && valid.length === checks.length;
  // A member whose role changed while typing still gets the form back with the reason.
  if (!mayOrder && !data) return <NotForYourRole what="Quick order" />;
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
      {/* The answer to "Check the lines" comes first, so a phone shows it without scrolling past the form. */}
      {checks.length ? <CheckedLines checks={checks} valid={valid} formId={form.id} stamp={data?.stamp ?? 0} /> : null}
      <Form method="post" action={QUICK_ORDER_PATH} className="mt-4 grid gap-6 lg:grid-cols-2" {...getFormProps(form)}>
        <input type="hidden" name={ONE_TIME_KEY_FIELD} value={oneTimeKey} />
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
            {/* The pad's lines open the quote request form, filled with them (checked as "check" is, nothing written). */}
            <SubmitButton
              name="intent"
              value="check"
              formAction={`${NEW_QUOTE_PATH}?from=pad`}
              variant="secondary"
              pending={false}
            >
              Request a quote
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
            <DeliveryFields fields={fields} onPlaceChange={setPlace} confirmAddress={buyer.confirmAddress} />
            <PaymentChoice meta={fields.payment} terms={terms} />
          </div>
          {/* The order's total with tax is what the limit is held against. */}
          <SpendingLimitNotice limit={limit} totalCents={priced ? totalCents : null} />
          <div
            className="mb-4 rounded border border-slate-200 bg-slate-50 p-3 text-sm"
            data-testid="pad-tax"
            aria-live="polite"
          >
            {priced ? (
              <>
                <p>Net {money(netCents)}</p>
                {taxLines.map((line, index) => (
                  <p key={index}>
                    {line.label}: {money(line.amountCents)}
                  </p>
                ))}
                <p className="font-semibold">Total with tax: {money(totalCents)}</p>
                <input type="hidden" name="quotedTotalCents" value={totalCents} />
              </>
            ) : (
              <p>Check the lines to see the total with tax.</p>
            )}
            <p className="mt-1 text-xs text-slate-600">
              Tax for delivery to {placeWords(taxPlace)}. It follows the delivery address; without JavaScript,
              &ldquo;Check the lines&rdquo; shows the total for the address typed.
            </p>
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
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Quick order — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
