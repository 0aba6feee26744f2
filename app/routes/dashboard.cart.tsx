import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  data,
  redirect,
} from "@remix-run/node";
import { Form, Link, useActionData, useFetcher, useLoaderData } from "@remix-run/react";
import type { ButtonHTMLAttributes } from "react";
import type { z } from "zod";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import {
  DeliveryFields,
  deliveryDefaultValues,
  PaymentChoice,
  SavedAddressPicker,
  useDeliveryPlace,
} from "~/components/delivery-fields";
import { Button, ErrorList, Field, SubmitButton, useIsPending } from "~/components/forms";
import { DataTable, type Column } from "~/components/ui/data-table";
import { deliveryDefaults } from "~/models/address-book.server";
import { notPlacedReply } from "~/orders/place-replies.server";
import { addToCart, getCart, removeFromCart, setCartQuantity, type NoticeSource } from "~/models/cart.server";
import { reorderIntoCart } from "~/models/cart-lines.server";
import { getOwnOrder } from "~/orders/model/reads.server";
import { ACCOUNTS_CANNOT_ORDER, checkoutTerms, placeCustomerOrder } from "~/orders/service.server";
import { can } from "~/services/companies.server";
import { customerPricing, priceScreenLines } from "~/services/pricing.server";
import { placeWords, taxLinesFor, taxPlaceFor, taxTotal } from "~/domain/tax";
import { PriceWithList } from "~/components/prices";
import { getUser, requireCustomer } from "~/services/guards.server";
import { cartIntentFrom, signInToContinue } from "~/services/sign-in-intent.server";
import { spendingLimitFor } from "~/services/spending-limit.server";
import { SpendingLimitNotice } from "~/components/spending-limit";
import { NotForYourRole } from "~/components/role-refusal";
import { redirectAfterOrder } from "~/orders/checkout-redirects.server";
import { CART_PATH, cartLineSchema, cartSchema, checkoutSchema } from "~/forms/cart-forms";
import { formatCents, formatQuantity } from "~/format";
import { safeRedirect } from "~/domain/safe-redirect";
import { useHydrated } from "~/hooks/hydrated";
import { parseForm, readForm } from "~/services/form.server";
import { newOneTimeKey, runOnce } from "~/services/one-time-key.server";
import { ONE_TIME_KEY_FIELD } from "~/forms/one-time-key";
import { cartRefusalCookie } from "~/services/cart-refusal.server";
import { redirectWithError, redirectWithSuccess } from "~/services/toast.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCustomer(request);
  const [stored, terms, limit] = await Promise.all([getCart(user.id), checkoutTerms(user), spendingLimitFor(user)]);
  const buyer = deliveryDefaults(user, new URL(request.url).searchParams.get("deliverTo"));
  // Each line at this customer's price (group, volume break); the checkout box adds the tax for the
  // address it holds, from the buyer's own tax details, as the server prices it when placing.
  const [priced, pricing] = await Promise.all([
    priceScreenLines(
      user,
      stored.lines.map((line) => ({ ...line, priced: Boolean(line.part) })),
    ),
    customerPricing(user),
  ]);
  const cart = { ...stored, ...priced };
  // The checkout form's one-time key: the same checkout sent twice places one order.
  return data(
    { cart, terms, buyer, taxProfile: pricing.tax, limit, mayOrder: can(user, "order"), oneTimeKey: newOneTimeKey() },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

type ActionData = { intent: string; partId: string; result: SubmissionResult<string[]> };

/**
 * Every form of the cart posts here: add (from the parts list and the part page), update and remove
 * a line, checkout, and reorder (from My Orders). Each change checks the part's rules now; success
 * goes back with a toast (post/redirect/get), a refusal answers 4xx with the message by the form.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (!(await getUser(request))) {
    // A visitor's Add to cart waits through the sign-in, then goes into the cart.
    const formData = await readForm(request);
    if (formData.get("intent") !== "add") return signInToContinue(request, null, CART_PATH);
    const back = safeRedirect(formData.get("redirectTo"), "");
    const from = back && !back.startsWith(CART_PATH) ? back : "/parts";
    return signInToContinue(request, cartIntentFrom(formData, from), from);
  }
  const user = await requireCustomer(request);
  // Only the checkout form carries a one-time key; the other forms of the cart run as they are.
  return runOnce(
    request,
    {
      ownerId: user.id,
      operation: "order:cart-checkout",
      shape: (result) => ({ intent: "checkout", partId: "", result }),
    },
    () => cartAction(request, user),
  );
}

async function cartAction(request: Request, user: Awaited<ReturnType<typeof requireCustomer>>) {
  const formData = await readForm(request);
  const submission = parseForm(formData, { schema: cartSchema });
  const posted = { intent: String(formData.get("intent") ?? ""), partId: String(formData.get("partId") ?? "") };
  const refuse = (message: string, status: number, field?: string) =>
    data<ActionData>(
      {
        ...posted,
        result: submission.reply(field ? { fieldErrors: { [field]: [message] } } : { formErrors: [message] }),
      },
      { status },
    );
  // A refused "Add to cart" posted without JavaScript (no "enhanced" field, which only a running
  // script adds) goes back to the page it came from, to the part's card, where that page shows the message.
  const backToCard = async (message: string) => {
    const back = safeRedirect(formData.get("redirectTo"), "");
    if (!back || back.startsWith(CART_PATH) || formData.get("enhanced") === "1") return null;
    if (!/^[a-f0-9]{24}$/i.test(posted.partId)) return null;
    const quantity = String(formData.get("quantity") ?? "").slice(0, 40);
    return redirect(`${back.split("#")[0]}#part-${posted.partId}`, {
      headers: { "Set-Cookie": await cartRefusalCookie({ partId: posted.partId, quantity, message }) },
    });
  };
  // Accounts people see and pay the company's orders; they do not fill carts. Said by the form, nothing lost.
  if (!can(user, "order")) return refuse(ACCOUNTS_CANNOT_ORDER, 403);
  if (submission.status !== "success") {
    const quantityError = posted.intent === "add" ? submission.error?.quantity?.[0] : undefined;
    const back = quantityError ? await backToCard(quantityError) : null;
    // "Update total" (checkout without JavaScript) is a validation of the form, not an error: 200.
    const status = submission.status === "error" ? 400 : 200;
    return back ?? data<ActionData>({ ...posted, result: submission.reply() }, { status });
  }
  const value = submission.value;

  switch (value.intent) {
    case "add": {
      const added = await addToCart(user.id, value.partId, value.quantity);
      if (!added.ok) return (await backToCard(added.error)) ?? refuse(added.error, 409, "quantity");
      const back = safeRedirect(value.redirectTo, CART_PATH);
      // Back to the page it came from; with JavaScript (a fetcher) in place of its history entry.
      return redirectWithSuccess(back, `${formatQuantity(value.quantity)} × ${added.result} added to your cart`, {
        headers: { "X-Remix-Replace": "true" },
      });
    }
    case "update": {
      const updated = await setCartQuantity(user.id, value.partId, value.quantity);
      if (!updated.ok) return refuse(updated.error, 409, "quantity");
      return redirectWithSuccess(CART_PATH, `${updated.result}: ${formatQuantity(value.quantity)} units`);
    }
    case "remove": {
      const removed = await removeFromCart(user.id, value.partId);
      if (!removed.ok) return refuse(removed.error, 409);
      return redirectWithSuccess(CART_PATH, "Removed from your cart");
    }
    case "reorder": {
      const order = await getOwnOrder(value.orderId, user);
      if (!order) throw new Response("We could not find that order in your account.", { status: 404 });
      const { added } = await reorderIntoCart(user.id, order);
      if (added === 0) return redirectWithError(CART_PATH, "Nothing from that order could go into your cart");
      return redirectWithSuccess(
        CART_PATH,
        `${added} ${added === 1 ? "line" : "lines"} of your order added to your cart`,
      );
    }
    case "checkout": {
      const cart = await getCart(user.id);
      if (cart.lines.length === 0) return refuse("Your cart is empty", 409);
      const broken = cart.lines.filter((line) => line.problem);
      if (broken.length) {
        return refuse(
          `Fix the ${broken.length === 1 ? "line" : `${broken.length} lines`} marked in your cart first`,
          409,
        );
      }
      const lines = cart.lines.map((line) => ({ partId: line.partId, quantity: line.quantity }));
      // The checkout claims the cart for the order, only while it is what was checked (a double submit
      // cannot order it twice), and empties it once the order exists; one that fails leaves it as it was.
      const placed = await placeCustomerOrder({
        lines,
        phone: value.phone,
        delivery: value.delivery,
        // The order is placed only at the total the checkout box showed (checkout.server.ts).
        quotedTotalCents: value.quotedTotalCents,
        poNumber: value.poNumber,
        user,
        payment: value.payment,
        fromCart: true,
        remember: { addressId: value.addressId, save: value.saveAddress },
      });
      if (!placed.ok) {
        const names = new Map(cart.lines.map((line) => [line.partId, line.part?.name ?? "A removed part"]));
        const { result, status } = notPlacedReply(submission, placed, (failures) => ({
          formErrors: failures.map((failure) => `${names.get(failure.partId)}: ${failure.message}`),
        }));
        return data<ActionData>({ ...posted, result }, { status });
      }
      return redirectAfterOrder(placed.order);
    }
  }
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

type CartData = ReturnType<typeof useLoaderData<typeof loader>>["cart"];

/** The heading of the cart's notices, by the change that said them. */
const NOTICE_HEADINGS: Record<NoticeSource | "earlier", string> = {
  reorder: "What changed since that order",
  pad: "What changed from the quick-order pad",
  earlier: "What changed when lines went in",
};

export default function CartPage() {
  const { cart, buyer, terms, taxProfile, limit, mayOrder, oneTimeKey } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  if (!mayOrder && !actionData) return <NotForYourRole what="The cart" />;
  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <h1 className="text-2xl font-bold">Your cart</h1>
      {actionData &&
      (actionData.intent === "add" || actionData.intent === "reorder" || !actionData.partId) &&
      actionData.intent !== "checkout" ? (
        <ErrorList
          errors={Object.values(actionData.result.error ?? {})
            .flat()
            .flatMap((error) =>
              error ? [`${actionData.intent === "add" ? "Not added to the cart: " : ""}${error}`] : [],
            )}
        />
      ) : null}
      {cart.notices.length ? (
        <section
          aria-labelledby="notices-heading"
          role="status"
          className="mt-4 rounded border-l-4 border-amber-600 bg-amber-50 p-4 text-amber-900"
        >
          <h2 id="notices-heading" className="font-semibold">
            {NOTICE_HEADINGS[cart.noticesFrom ?? "earlier"]}
          </h2>
          <ul className="mt-1 list-disc pl-5" data-testid="cart-notices">
            {cart.notices.map((notice) => (
              <li key={notice}>{notice}</li>
            ))}
          </ul>
        </section>
      ) : null}
      {cart.lines.length === 0 ? (
        <p className="mt-4 text-slate-700">
          Your cart is empty.{" "}
          <Link to="/parts" className="font-medium text-brand-700 underline">
            Browse parts
          </Link>{" "}
          or use the{" "}
          <Link to="/dashboard/quick-order" className="font-medium text-brand-700 underline">
            quick-order pad
          </Link>
          .
        </p>
      ) : (
        <>
          <CartTable cart={cart} actionData={actionData} />
          <SpendingLimitNotice limit={limit} totalCents={cart.totalCents} />
          <PlaceOrderForm
            terms={terms}
            key={buyer.addressId ?? "profile"}
            cart={cart}
            buyer={buyer}
            limit={limit}
            taxProfile={taxProfile}
            lastResult={actionData?.intent === "checkout" ? actionData.result : undefined}
            oneTimeKey={oneTimeKey}
          />
        </>
      )}
    </div>
  );
}

const CART_COLUMNS: Column[] = [
  { label: "Part" },
  { label: "Unit price", align: "right" },
  { label: "Quantity" },
  { label: "Line total", align: "right" },
  { label: <span className="sr-only">Remove</span> },
];

function CartTable({ cart, actionData }: { cart: CartData; actionData: ActionData | undefined }) {
  return (
    <DataTable
      caption="The lines of your cart"
      columns={CART_COLUMNS}
      className="mt-4"
      footer={
        <>
          <tr>
            <th scope="row" colSpan={3} className="px-3 py-2 text-right font-semibold">
              Net, before tax ({formatQuantity(cart.totalQuantity)} units)
            </th>
            <td className="px-3 py-2 text-right text-base font-semibold" data-testid="cart-net">
              {formatCents(cart.netCents)}
            </td>
            <td />
          </tr>
        </>
      }
    >
      {cart.lines.map((line) => (
        <CartRow
          key={line.partId}
          line={line}
          actionData={actionData?.partId === line.partId ? actionData : undefined}
        />
      ))}
    </DataTable>
  );
}

function CartRow({ line, actionData }: { line: CartData["lines"][number]; actionData: ActionData | undefined }) {
  const updater = useFetcher<ActionData>();
  const remover = useFetcher<ActionData>();
  const name = line.part?.name ?? "A part that is no longer sold";
  const lastResult = updater.data?.result ?? (actionData?.intent === "update" ? actionData.result : undefined);
  const [form, fields] = useForm({
    id: `cart-line-${line.partId}`,
    lastResult,
    constraint: getZodConstraint(cartLineSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: { partId: line.partId, quantity: String(line.quantity) },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: cartLineSchema }),
  });
  const removeErrors =
    remover.data?.result.error?.[""] ?? (actionData?.intent === "remove" ? actionData.result.error?.[""] : null);
  return (
    <tr data-testid={`cart-line-${line.part?.partNumber ?? line.partId}`}>
      <th scope="row" className="px-3 py-2 align-top font-medium">
        {line.part ? (
          <Link to={`/parts/${line.partId}`} className="text-brand-700 underline hover:text-brand-800">
            {name}
          </Link>
        ) : (
          name
        )}
        {line.part ? (
          <span className="block font-mono text-xs font-normal text-slate-600">{line.part.partNumber}</span>
        ) : null}
        {line.part ? (
          <span className="block text-xs font-normal text-slate-600">
            {formatQuantity(line.part.minOrderQuantity)} to {formatQuantity(line.part.availableQuantity)} units
          </span>
        ) : null}
        {line.backorder && !line.problem ? (
          <span className="block text-sm font-normal text-amber-900" data-testid="line-backorder">
            {line.backorder}
          </span>
        ) : null}
        {line.problem ? (
          <span className="block text-sm font-normal text-red-700" data-testid="line-problem">
            {line.problem.message}
          </span>
        ) : null}
      </th>
      <td className="px-3 py-2 text-right align-top" data-label="Unit price">
        {line.part && line.unitPriceCents !== null ? (
          <PriceWithList cents={line.unitPriceCents} listCents={line.listPriceCents} />
        ) : (
          "—"
        )}
      </td>
      <td className="px-3 py-2 align-top max-md:col-span-2" data-label="Quantity">
        <updater.Form method="post" action={CART_PATH} className="flex items-start gap-2" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="update" />
          <input type="hidden" name="partId" value={line.partId} />
          <Field
            className="w-32"
            meta={fields.quantity}
            label={<span className="sr-only">Quantity of {name}</span>}
            type="number"
            inputProps={{ step: 1, inputMode: "numeric" }}
          />
          <SubmitButton
            variant="secondary"
            className="px-3 py-2 text-sm"
            pending={updater.state !== "idle"}
            pendingText="Saving…"
            aria-label={`Update the quantity of ${name}`}
          >
            Update
          </SubmitButton>
        </updater.Form>
        <ErrorList id={form.errorId} errors={form.errors} />
      </td>
      <td className="px-3 py-2 text-right align-top" data-label="Line total" data-testid="line-total">
        {formatCents(line.lineTotalCents)}
      </td>
      <td className="px-3 py-2 align-top">
        <remover.Form method="post" action={CART_PATH}>
          <input type="hidden" name="intent" value="remove" />
          <input type="hidden" name="partId" value={line.partId} />
          <Button
            type="submit"
            variant="secondary"
            className="px-3 py-2 text-sm"
            disabled={remover.state !== "idle"}
            aria-label={`Remove ${name} from the cart`}
          >
            {remover.state !== "idle" ? "Removing…" : "Remove"}
          </Button>
        </remover.Form>
        <ErrorList errors={removeErrors} />
      </td>
    </tr>
  );
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

function PlaceOrderForm({
  cart,
  buyer,
  terms,
  limit,
  taxProfile,
  lastResult,
  oneTimeKey,
}: {
  oneTimeKey: string;
  cart: CartData;
  limit: LoaderData["limit"];
  terms: LoaderData["terms"];
  buyer: LoaderData["buyer"];
  taxProfile: LoaderData["taxProfile"];
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const [form, fields] = useForm<z.output<typeof checkoutSchema>>({
    id: "checkout",
    lastResult,
    constraint: getZodConstraint(checkoutSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: deliveryDefaultValues(buyer),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: checkoutSchema }),
  });
  const isPending = useIsPending({ formAction: CART_PATH });
  // What "Place the order" charges: the tax for the address the form holds now (what was posted,
  // without JavaScript), priced as the server prices it; the server places the order only at it.
  const [place, setPlace] = useDeliveryPlace(fields.delivery);
  const taxPlace = taxPlaceFor(taxProfile, place);
  const taxLines = taxLinesFor(taxProfile, cart.netCents, taxPlace);
  const shown = {
    netCents: cart.netCents,
    taxLines,
    totalCents: cart.netCents + taxTotal(taxLines),
    placeWords: placeWords(taxPlace),
  };
  return (
    <section
      aria-labelledby="checkout-heading"
      className="mt-8 max-w-xl rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id="checkout-heading" className="text-xl font-semibold">
        Checkout
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        One order for every line, paid with one payment. Prices and stock are checked again when you place it.
      </p>
      <Form method="post" action={CART_PATH} className="mt-4" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="checkout" />
        <input type="hidden" name={ONE_TIME_KEY_FIELD} value={oneTimeKey} />
        <input type="hidden" name="quotedTotalCents" value={shown.totalCents} />
        <SavedAddressPicker saved={buyer.saved} chosenId={buyer.addressId} />
        <DeliveryFields fields={fields} onPlaceChange={setPlace} confirmAddress={buyer.confirmAddress} />
        <PaymentChoice meta={fields.payment} terms={terms} />
        <div
          className="mb-4 rounded border border-slate-200 bg-slate-50 p-3 text-sm"
          data-testid="checkout-tax"
          aria-live="polite"
        >
          <p>
            Net {formatCents(shown.netCents)}
            {shown.taxLines.map((line, index) => (
              <span key={index} className="block">
                {line.label}: {formatCents(line.amountCents)}
                {line.note ? <span className="block text-xs text-slate-600">{line.note}</span> : null}
              </span>
            ))}
            <strong className="block">
              Total with tax: <span data-testid="cart-total">{formatCents(shown.totalCents)}</span>
            </strong>
          </p>
          <p className="mt-1 text-xs text-slate-600">
            Tax for delivery to {shown.placeWords}
            {place ? "" : " (choose the delivery country to see its tax)"}. It follows the delivery address: with
            another address you see the new total before anything is ordered.
          </p>
          <UpdateTotalButton {...form.validate.getButtonProps({ name: fields.delivery.name })} />
        </div>
        <SpendingLimitNotice limit={limit} totalCents={shown.totalCents} />
        <ErrorList id={form.errorId} errors={form.errors} />
        {!cart.ok ? (
          <p className="mb-2 text-sm text-red-700">Fix the lines marked in red before you check out.</p>
        ) : null}
        <SubmitButton pending={isPending} pendingText="Placing the order…" className="w-full">
          Place the order ({formatCents(shown.totalCents)})
        </SubmitButton>
      </Form>
    </section>
  );
}

/** Without JavaScript the total cannot follow the address: this posts the form to show the new figures, ordering nothing. */
function UpdateTotalButton(props: ButtonHTMLAttributes<HTMLButtonElement>) {
  const hydrated = useHydrated();
  if (hydrated) return null;
  return (
    <Button variant="secondary" className="mt-2" {...props}>
      Update total
    </Button>
  );
}

export const meta: MetaFunction = () => [{ title: "Your cart — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
