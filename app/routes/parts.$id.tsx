import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  data as dataWithInit,
} from "@remix-run/node";
import { isRouteErrorResponse, Link, useActionData, useLoaderData } from "@remix-run/react";
import { redirectWithSuccess } from "~/services/toast.server";
import { AddToCartForm } from "~/components/add-to-cart";
import { errorTitle, GeneralErrorBoundary } from "~/components/error-boundary";
import { PartOrderForm, VolumePrices } from "~/components/part-order-form";
import { deliveryDefaults } from "~/models/address-book.server";
import { notPlacedReply } from "~/orders/place-replies.server";
import { PartCatalogueDetails, partJsonLd } from "~/components/part-catalogue-details";
import { vehicleLabel } from "~/content/vehicles";
import { getPartCatalogue } from "~/models/part-catalogue.server";
import { getPart } from "~/models/part.server";
import { getUser, requireUser } from "~/services/guards.server";
import { cartIntentFrom, signInToContinue } from "~/services/sign-in-intent.server";
import { spendingLimitFor } from "~/services/spending-limit.server";
import { can } from "~/services/companies.server";
import { fitsVehicle } from "~/domain/catalogue";
import { getEnv } from "~/services/env.server";
import { getRememberedVehicle } from "~/services/vehicle.server";
import { takeCartRefusal } from "~/services/cart-refusal.server";
import { formatCents, formatQuantity } from "~/format";
import { expectedRestockDay } from "~/domain/order-lines";
import { formatDay } from "~/domain/order-states";
import { orderFormSchema } from "~/forms/shop-forms";
import { parseForm, readForm } from "~/services/form.server";
import { newOneTimeKey, runOnce } from "~/services/one-time-key.server";
import { redirectAfterOrder } from "~/orders/checkout-redirects.server";
import { checkoutTerms, placeCustomerOrder } from "~/orders/service.server";
import { inCurrency, noPriceIn, priceTable } from "~/domain/pricing";
import { CURRENCIES } from "~/content/currencies";
import { shownCurrency } from "~/services/display-currency.server";
import { customerPricing } from "~/services/pricing.server";
import { NotSoldIn, PriceWithList } from "~/components/prices";
import { SaveToListForm } from "~/components/saved-list-save";
import { listChoicesFor } from "~/services/saved-lists.server";

const NOT_FOUND = "That part is not in our catalogue (any more).";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [part, catalogue, vehicle, terms, limit] = await Promise.all([
    getPart(params.id ?? ""),
    getPartCatalogue(params.id ?? ""),
    getRememberedVehicle(request),
    checkoutTerms(user),
    spendingLimitFor(user),
  ]);
  if (!part || !catalogue) throw new Response(NOT_FOUND, { status: 404 });
  // This customer's price at each volume break (their group's price where it is lower), in the
  // currency they buy in; a part without a list there is shown, not sold in it.
  const pricing = await customerPricing(user.role === "customer" ? user : null);
  const { group } = pricing;
  const currency = await shownCurrency(request, user);
  const sold = inCurrency(part, currency);
  const delivery = deliveryDefaults(user, new URL(request.url).searchParams.get("deliverTo"));
  const prices = priceTable(sold ?? part, group, part.minOrderQuantity).map(
    ({ minQuantity, unitPriceCents, listPriceCents }) => ({
      minQuantity,
      unitPriceCents,
      listPriceCents,
    }),
  );
  // An "Add to cart" refused without JavaScript came back here: its message goes by the form.
  const { refusal, setCookie } = await takeCartRefusal(request);
  return dataWithInit(
    {
      part: sold ?? part,
      /** The home list price, for the page's structured data. */
      homePriceCents: part.priceCents,
      currency,
      unpriced: !sold,
      prices,
      catalogue,
      /** The visitor's remembered vehicle and whether this part fits it. */
      vehicle: vehicle ? { label: vehicleLabel(vehicle), fits: fitsVehicle(catalogue.fitment, vehicle) } : null,
      origin: getEnv().PUBLIC_URL.replace(/\/+$/, ""),
      buyer: { name: user.name, email: user.email, ...delivery },
      /** The buyer's own tax details: the form prices the tax for the address it holds, as the server will. */
      taxProfile: pricing.tax,
      isAdmin: user.role === "admin",
      refusal: refusal?.partId === part.id ? refusal : null,
      terms,
      /** The order form's one-time key: the same form sent twice places one order. */
      oneTimeKey: newOneTimeKey(),
      limit,
      /** Accounts members see price and stock, and who orders. */
      mayOrder: user.role === "admin" || can(user, "order"),
      /** The lists "Save to a list" offers (a customer's own, and shared ones they may change). */
      saveLists: await listChoicesFor(user),
    },
    {
      headers: {
        "Cache-Control": "private, no-store",
        ...(setCookie ? { "Set-Cookie": setCookie } : {}),
      },
    },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (!(await getUser(request))) {
    // Signed out while ordering: the quantity waits through the sign-in and goes into the cart.
    const back = new URL(request.url).pathname;
    return signInToContinue(request, cartIntentFrom(await readForm(request), back, params.id ?? ""), back);
  }
  const user = await requireUser(request);
  const partId = params.id ?? "";
  return runOnce(request, { ownerId: user.id, operation: "order:part-page", target: partId }, () =>
    placePartOrder(request, partId, user),
  );
}

async function placePartOrder(request: Request, partId: string, user: Awaited<ReturnType<typeof requireUser>>) {
  const part = await getPart(partId);
  if (!part) throw new Response(NOT_FOUND, { status: 404 });
  const submission = parseForm(await readForm(request), { schema: orderFormSchema(part) });
  if (user.role === "admin") {
    return dataWithInit(
      submission.reply({ formErrors: ["Orders are placed from customer accounts, not by admins."] }),
      {
        status: 403,
      },
    );
  }
  // "Update total" (the page without JavaScript) re-renders the form with the typed quantity: no order.
  if (submission.status !== "success") {
    return dataWithInit(submission.reply(), { status: submission.status === "error" ? 400 : 200 });
  }

  const { quantity, phone, delivery, addressId, poNumber, saveAddress, payment, quotedTotalCents } = submission.value;
  const placed = await placeCustomerOrder({
    lines: [{ partId: part.id, quantity }],
    phone,
    delivery,
    poNumber,
    user,
    payment,
    quotedTotalCents,
    remember: { addressId, save: saveAddress },
  });
  if (!placed.ok) {
    // Someone else's order took the stock between the page load and this one (or the part went).
    const { result, status } = notPlacedReply(submission, placed, ([failure]) => ({
      fieldErrors: { quantity: [failure.message] },
    }));
    return dataWithInit(result, { status });
  }
  // On account, waiting for approval, or by bank transfer (on to the bank details): as checkout does.
  if (placed.order.paymentMethod !== "card" || placed.order.status === "approval") {
    return redirectAfterOrder(placed.order);
  }
  // One toast: the spec's two messages, and the total the order will charge.
  return redirectWithSuccess("/dashboard/orders", {
    message: "Your Order is Placed",
    description: `Order Placed Successfully! Total: ${formatCents(placed.order.totalCents, { currency: placed.order.currency })} for ${formatQuantity(quantity)} × ${part.name}.`,
  });
}

export const headers: HeadersFunction = ({ loaderHeaders }) => ({
  "Cache-Control": loaderHeaders.get("Cache-Control") ?? "private, no-store",
});

export default function PartDetails() {
  const {
    part,
    homePriceCents,
    currency,
    unpriced,
    prices,
    buyer,
    isAdmin,
    catalogue,
    vehicle,
    origin,
    refusal,
    terms,
    taxProfile,
    limit,
    mayOrder,
    oneTimeKey,
    saveLists,
  } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const canMeetMinimum = part.backorderable || part.availableQuantity >= part.minOrderQuantity;
  return (
    <div className="mx-auto grid max-w-6xl gap-10 px-4 py-10 md:grid-cols-2">
      <article>
        <img
          src={part.img}
          alt={part.name}
          width={480}
          height={360}
          className="aspect-[4/3] w-full rounded-lg border border-slate-200 bg-white object-contain"
        />
        <h1 className="mt-6 text-3xl font-bold text-slate-900">{part.name}</h1>
        <p className="mt-1 text-sm text-slate-600">Part number {part.partNumber}</p>
        {vehicle ? (
          vehicle.fits ? (
            <p className="mt-2 font-medium text-green-800" data-testid="fits">
              <span aria-hidden="true">✓ </span>Fits your {vehicle.label}
            </p>
          ) : (
            <p className="mt-2 text-slate-700" data-testid="fits">
              Not listed for your {vehicle.label}: check the vehicles below.
            </p>
          )
        ) : null}
        <p className="mt-4 text-slate-800">{part.description}</p>
        <dl className="mt-6 grid grid-cols-1 gap-3 sm:grid-cols-3">
          <div className="rounded border border-slate-200 p-3">
            <dt className="text-sm text-slate-600">Minimum order quantity</dt>
            <dd className="text-lg font-semibold" data-testid="min-order">
              {formatQuantity(part.minOrderQuantity)}
            </dd>
          </div>
          <div className="rounded border border-slate-200 p-3">
            <dt className="text-sm text-slate-600">Available quantity</dt>
            <dd className="text-lg font-semibold" data-testid="available">
              {formatQuantity(part.availableQuantity)}
            </dd>
            {part.backorderable ? (
              <dd className="text-xs text-slate-700" data-testid="backorder-note">
                More on backorder
                {expectedRestockDay(part) ? `, expected ${formatDay(expectedRestockDay(part)!)}` : ""}
              </dd>
            ) : null}
          </div>
          <div className="rounded border border-slate-200 p-3">
            <dt className="text-sm text-slate-600">Price per unit</dt>
            <dd className="text-lg font-semibold" data-testid="unit-price">
              {unpriced ? (
                <NotSoldIn currency={currency} />
              ) : (
                <PriceWithList cents={prices[0].unitPriceCents} listCents={prices[0].listPriceCents} />
              )}
            </dd>
          </div>
        </dl>
        {unpriced ? null : <VolumePrices prices={prices} />}
        <PartCatalogueDetails catalogue={catalogue} />
        <script
          type="application/ld+json"
          // JSON with "<" escaped, so no text of the part can close the script element.
          dangerouslySetInnerHTML={{
            __html: partJsonLd({ part: { ...part, priceCents: homePriceCents }, catalogue, origin }),
          }}
        />
      </article>

      <section aria-labelledby="order-heading" className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h2 id="order-heading" className="text-2xl font-semibold">
          Place an order
        </h2>
        {isAdmin ? (
          <p className="mt-4 text-slate-700">Orders are placed from customer accounts, not by admins.</p>
        ) : !mayOrder ? (
          <p className="mt-4 text-slate-700" data-testid="ask-a-buyer">
            Ask a buyer to order: your role in your company is Accounts, so a buyer or an owner places orders. You see
            and pay them under My Orders.
          </p>
        ) : unpriced ? (
          <p className="mt-4 text-slate-700" data-testid="not-orderable">
            {noPriceIn(part.partNumber, currency)} Your company buys in {CURRENCIES[currency].plural}, and we sell a
            part in a currency only at a price set in it.
          </p>
        ) : !canMeetMinimum ? (
          <p className="mt-4 text-slate-700">
            We do not have enough stock for the minimum order of {formatQuantity(part.minOrderQuantity)} units right
            now. Please check back after our next restock.
          </p>
        ) : (
          // A saved address chosen from the picker starts the form again with it.
          <PartOrderForm
            key={buyer.addressId ?? "profile"}
            part={part}
            prices={prices}
            buyer={buyer}
            terms={terms}
            taxProfile={taxProfile}
            limit={limit}
            oneTimeKey={oneTimeKey}
            lastResult={lastResult}
          />
        )}
        {!isAdmin && mayOrder && canMeetMinimum && !unpriced ? (
          <div id={`part-${part.id}`} className="mt-6 border-t border-slate-200 pt-4">
            <h3 className="font-semibold">Ordering several parts?</h3>
            <p className="text-sm text-slate-600">
              Put this one in your{" "}
              <Link to="/dashboard/cart" className="text-brand-700 underline">
                cart
              </Link>{" "}
              and check out once for all of them.
            </p>
            <AddToCartForm part={part} refusal={refusal} />
          </div>
        ) : null}
        {isAdmin ? null : (
          <SaveToListForm
            source={{ intent: "save-part", partId: part.id, minimum: part.minOrderQuantity }}
            lists={saveLists}
            redirectTo={`/parts/${part.id}`}
          />
        )}
      </section>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, error }) => [
  {
    title: `${data ? data.part.name : isRouteErrorResponse(error) && error.status === 404 ? "Part not found" : errorTitle(error)} — PartsWorks`,
  },
  { name: "description", content: data?.part.description ?? "" },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
