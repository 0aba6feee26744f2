import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  data,
  redirect,
} from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { CartCheckoutForm } from "~/components/cart-checkout";
import { CartTable } from "~/components/cart-table";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ErrorList } from "~/components/forms";
import { deliveryDefaults } from "~/models/address-book.server";
import { notPlacedReply } from "~/orders/place-replies.server";
import { addToCart, getCart, removeFromCart, setCartQuantity, type NoticeSource } from "~/models/cart.server";
import { reorderIntoCart } from "~/models/cart-lines.server";
import { getOwnOrder } from "~/orders/model/reads.server";
import { ACCOUNTS_CANNOT_ORDER, checkoutTerms, placeCustomerOrder } from "~/orders/service.server";
import { can } from "~/services/companies.server";
import { customerPricing, priceScreenLines } from "~/services/pricing.server";
import { noPriceIn } from "~/domain/pricing";
import { getUser, requireCustomer } from "~/services/guards.server";
import { cartIntentFrom, signInToContinue } from "~/services/sign-in-intent.server";
import { spendingLimitFor } from "~/services/spending-limit.server";
import { SpendingLimitNotice } from "~/components/spending-limit";
import { SaveToListForm } from "~/components/saved-list-save";
import { listChoicesFor } from "~/services/saved-lists.server";
import { NotForYourRole } from "~/components/role-refusal";
import { redirectAfterOrder } from "~/orders/checkout-redirects.server";
import { CART_PATH, cartSchema, type CartReply } from "~/forms/cart-forms";
import { NEW_QUOTE_PATH } from "~/forms/quote-forms";
import { formatQuantity } from "~/format";
import { safeRedirect } from "~/domain/safe-redirect";
import { parseForm, readForm } from "~/services/form.server";
import { newOneTimeKey, runOnce } from "~/services/one-time-key.server";
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
  // A part without a price in the company's currency cannot be checked out in it: said on its line.
  const unpriced = new Set(priced.unpriced);
  const lines = priced.lines.map((line) =>
    line.part && unpriced.has(line.partId) && !line.problem
      ? { ...line, problem: { reason: "no-price" as const, message: noPriceIn(line.part.partNumber, priced.currency) } }
      : line,
  );
  const cart = { ...stored, ...priced, lines, ok: stored.ok && unpriced.size === 0 };
  // The checkout form's one-time key: the same checkout sent twice places one order.
  return data(
    {
      cart,
      terms,
      buyer,
      taxProfile: pricing.tax,
      limit,
      mayOrder: can(user, "order"),
      oneTimeKey: newOneTimeKey(),
      saveLists: await listChoicesFor(user),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

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
    data<CartReply>(
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
    return back ?? data<CartReply>({ ...posted, result: submission.reply() }, { status });
  }
  const value = submission.value;

  switch (value.intent) {
    case "add": {
      const added = await addToCart(user.id, value.partId, value.quantity, user.pricing.currency);
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
        return data<CartReply>({ ...posted, result }, { status });
      }
      return redirectAfterOrder(placed.order);
    }
  }
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

/** The heading of the cart's notices, by the change that said them. */
const NOTICE_HEADINGS: Record<NoticeSource | "earlier", string> = {
  reorder: "What changed since that order",
  pad: "What changed from the quick-order pad",
  earlier: "What changed when lines went in",
};

export default function CartPage() {
  const { cart, buyer, terms, taxProfile, limit, mayOrder, oneTimeKey, saveLists } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as CartReply | undefined;
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
          <SaveToListForm source={{ intent: "save-cart" }} lists={saveLists} redirectTo={CART_PATH} />
          <SpendingLimitNotice limit={limit} totalCents={cart.totalCents} />
          <p className="mt-4 text-slate-700">
            Larger quantities, or a price to agree first?{" "}
            <Link to={`${NEW_QUOTE_PATH}?from=cart`} className="font-medium text-brand-700 underline">
              Request a quote
            </Link>{" "}
            for these lines: we answer within a working day.
          </p>
          <CartCheckoutForm
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

export const meta: MetaFunction = () => [{ title: "Your cart — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
