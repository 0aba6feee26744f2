import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  data as dataWithInit,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useMemo, useState } from "react";
import { redirectWithSuccess } from "~/services/toast.server";
import { AddToCartForm } from "~/components/add-to-cart";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import {
  DeliveryFields,
  deliveryDefaultValues,
  PaymentChoice,
  SavedAddressPicker,
  useDeliveryPlace,
} from "~/components/delivery-fields";
import { Button, ErrorList, Field, SubmitButton, useIsPending } from "~/components/forms";
import { confirmSavedAddress, deliveryDefaults, saveDeliveryToProfile } from "~/models/address-book.server";
import { PartCatalogueDetails, partJsonLd } from "~/components/part-catalogue-details";
import { vehicleLabel } from "~/content/vehicles";
import { getPartCatalogue } from "~/models/part-catalogue.server";
import { getPart } from "~/models/part.server";
import { getUser, requireUser } from "~/services/guards.server";
import { cartIntentFrom, signInToContinue } from "~/services/sign-in-intent.server";
import { spendingLimitFor } from "~/services/spending-limit.server";
import { SpendingLimitNotice } from "~/components/spending-limit";
import { can } from "~/services/companies.server";
import { fitsVehicle } from "~/domain/catalogue";
import { getEnv } from "~/services/env.server";
import { getRememberedVehicle } from "~/services/vehicle.server";
import { takeCartRefusal } from "~/services/cart-refusal.server";
import { useHydrated } from "~/hooks/hydrated";
import { formatCents, formatQuantity } from "~/format";
import { backorderSplit, backorderText, expectedRestockDay } from "~/domain/order-lines";
import { formatDay } from "~/domain/order-states";
import { orderFormSchema } from "~/forms/shop-forms";
import { parseForm, readForm } from "~/services/form.server";
import { newOneTimeKey, runOnce } from "~/services/one-time-key.server";
import { ONE_TIME_KEY_FIELD } from "~/forms/one-time-key";
import { redirectAfterOrder } from "~/orders/checkout-redirects.server";
import { checkoutTerms, placeCustomerOrder } from "~/orders/service.server";
import { priceTable } from "~/domain/pricing";
import { customerPricing } from "~/services/pricing.server";
import { placeWords, taxLinesFor, taxPlaceFor, taxTotal } from "~/domain/tax";
import { PriceWithList } from "~/components/prices";

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
  // This customer's price at each volume break (their group's price where it is lower).
  const pricing = await customerPricing(user.role === "customer" ? user : null);
  const { group } = pricing;
  const delivery = deliveryDefaults(user, new URL(request.url).searchParams.get("deliverTo"));
  const prices = priceTable(part, group, part.minOrderQuantity).map(
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
      part,
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
  });
  if (!placed.ok && "payment" in placed) {
    return dataWithInit(submission.reply({ fieldErrors: { payment: [placed.payment.message] } }), {
      status: placed.payment.status,
    });
  }
  if (!placed.ok) {
    // Over the customer's caps on unpaid orders: said above the form, with how to lift them.
    if (placed.refusal) return dataWithInit(submission.reply({ formErrors: [placed.refusal] }), { status: 409 });
    // Someone else's order took the stock between the page load and this one (or the part went).
    return dataWithInit(submission.reply({ fieldErrors: { quantity: [placed.failures[0].message] } }), { status: 409 });
  }
  if (addressId) await confirmSavedAddress(user.id, addressId, delivery);
  if (saveAddress) await saveDeliveryToProfile(user.id, { phone, delivery });
  // On account, waiting for approval, or by bank transfer (on to the bank details): as checkout does.
  if (placed.order.paymentMethod !== "card" || placed.order.status === "approval") {
    return redirectAfterOrder(placed.order);
  }
  // One toast: the spec's two messages, and the total the order will charge.
  return redirectWithSuccess("/dashboard/orders", {
    message: "Your Order is Placed",
    description: `Order Placed Successfully! Total: ${formatCents(placed.order.totalCents)} for ${formatQuantity(quantity)} × ${part.name}.`,
  });
}

export const headers: HeadersFunction = ({ loaderHeaders }) => ({
  "Cache-Control": loaderHeaders.get("Cache-Control") ?? "private, no-store",
});

export default function PartDetails() {
  const { part, prices, buyer, isAdmin, catalogue, vehicle, origin, refusal, terms, taxProfile, mayOrder, oneTimeKey } =
    useLoaderData<typeof loader>();
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
              <PriceWithList cents={prices[0].unitPriceCents} listCents={prices[0].listPriceCents} />
            </dd>
          </div>
        </dl>
        <VolumePrices prices={prices} />
        <PartCatalogueDetails catalogue={catalogue} />
        <script
          type="application/ld+json"
          // JSON with "<" escaped, so no text of the part can close the script element.
          dangerouslySetInnerHTML={{ __html: partJsonLd({ part, catalogue, origin }) }}
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
        ) : !canMeetMinimum ? (
          <p className="mt-4 text-slate-700">
            We do not have enough stock for the minimum order of {formatQuantity(part.minOrderQuantity)} units right
            now. Please check back after our next restock.
          </p>
        ) : (
          // A saved address chosen from the picker starts the form again with it.
          <OrderForm
            key={buyer.addressId ?? "profile"}
            part={part}
            prices={prices}
            buyer={buyer}
            terms={terms}
            taxProfile={taxProfile}
            oneTimeKey={oneTimeKey}
          />
        )}
        {!isAdmin && mayOrder && canMeetMinimum ? (
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
      </section>
    </div>
  );
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

/** The unit price at each volume break, when there is more than one price. */
function VolumePrices({ prices }: { prices: LoaderData["prices"] }) {
  if (prices.length < 2) return null;
  return (
    <table className="mt-4 w-full max-w-sm text-left text-sm" data-testid="volume-prices">
      <caption className="mb-1 text-left font-semibold text-slate-800">Volume prices</caption>
      <thead>
        <tr className="border-b border-slate-300">
          <th scope="col" className="py-1 pr-3">
            Quantity
          </th>
          <th scope="col" className="py-1 text-right">
            Price per unit
          </th>
        </tr>
      </thead>
      <tbody>
        {prices.map((row, index) => (
          <tr key={row.minQuantity} className="border-b border-slate-100">
            <td className="py-1 pr-3">
              {formatQuantity(row.minQuantity)}
              {index === prices.length - 1 ? "+" : ` to ${formatQuantity(prices[index + 1].minQuantity - 1)}`}
            </td>
            <td className="py-1 text-right">
              <PriceWithList cents={row.unitPriceCents} listCents={row.listPriceCents} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The price at a quantity, from the table (prices change only at a break), and the next lower one. */
function priceAt(prices: LoaderData["prices"], quantity: number) {
  let current = prices[0];
  for (const row of prices) if (quantity >= row.minQuantity) current = row;
  const next = prices.find((row) => row.minQuantity > quantity && row.unitPriceCents < current.unitPriceCents) ?? null;
  return { current, next };
}

function OrderForm({
  part,
  prices,
  buyer,
  terms,
  taxProfile,
  oneTimeKey,
}: {
  part: LoaderData["part"];
  prices: LoaderData["prices"];
  buyer: LoaderData["buyer"];
  terms: LoaderData["terms"];
  taxProfile: LoaderData["taxProfile"];
  oneTimeKey: string;
}) {
  const lastResult = useActionData<typeof action>();
  const schema = useMemo(() => orderFormSchema(part), [part]);
  const constraint = useMemo(() => getZodConstraint(schema), [schema]);
  const [form, fields] = useForm({
    id: `order-${part.id}`,
    lastResult,
    constraint,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: { quantity: String(part.minOrderQuantity), ...deliveryDefaultValues(buyer) },
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const initialQuantity = fields.quantity.initialValue;
  const [quantity, setQuantity] = useState(
    typeof initialQuantity === "string" ? initialQuantity : String(part.minOrderQuantity),
  );
  const hydrated = useHydrated();
  const isPending = useIsPending();

  const text = quantity.trim();
  const number = Number(text);
  const tooMany = text !== "" && number > part.availableQuantity && !part.backorderable;
  const valid = text !== "" && Number.isInteger(number) && number > 0;
  const { current, next } = priceAt(prices, valid ? number : part.minOrderQuantity);
  // The tax for the address the form holds now (the server prices it the same way, and places the
  // order only at the total shown here).
  const [place, setPlace] = useDeliveryPlace(fields.delivery);
  const taxPlace = taxPlaceFor(taxProfile, place);
  const netCents = valid ? current.unitPriceCents * number : 0;
  const taxLines = taxLinesFor(taxProfile, netCents, taxPlace);
  const totalCents = netCents + taxTotal(taxLines);
  const backorder = valid ? backorderText(backorderSplit(part, number)) : null;

  return (
    <Form method="post" className="mt-4 space-y-1" {...getFormProps(form)}>
      <input type="hidden" name={ONE_TIME_KEY_FIELD} value={oneTimeKey} />
      <div>
        <label htmlFor="buyer-name" className="mb-1 block text-sm font-medium text-slate-800">
          Name
        </label>
        <input
          id="buyer-name"
          value={buyer.name}
          readOnly
          className="block min-h-11 w-full rounded border border-slate-400 bg-slate-100 px-3 py-2 text-slate-900"
        />
      </div>
      <div className="pt-5">
        <label htmlFor="buyer-email" className="mb-1 block text-sm font-medium text-slate-800">
          Email
        </label>
        <input
          id="buyer-email"
          type="email"
          value={buyer.email}
          readOnly
          className="block min-h-11 w-full rounded border border-slate-400 bg-slate-100 px-3 py-2 text-slate-900"
        />
      </div>
      <div className="pt-5">
        <SavedAddressPicker saved={buyer.saved} chosenId={buyer.addressId} />
        <DeliveryFields fields={fields} onPlaceChange={setPlace} confirmAddress={buyer.confirmAddress} />
      </div>
      <Field
        meta={fields.quantity}
        label={
          part.backorderable
            ? `Quantity (from ${formatQuantity(part.minOrderQuantity)}; beyond ${formatQuantity(part.availableQuantity)} on backorder)`
            : `Quantity (${formatQuantity(part.minOrderQuantity)} to ${formatQuantity(part.availableQuantity)})`
        }
        type="number"
        inputProps={{
          step: 1,
          inputMode: "numeric",
          onChange: (event) => setQuantity(event.currentTarget.value),
        }}
      />
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        {valid && backorder ? (
          <p
            className="w-full rounded bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900"
            data-testid="backorder-split"
          >
            {backorder}
          </p>
        ) : null}
        <div className="w-full text-sm text-slate-700" data-testid="order-tax" aria-live="polite">
          <p>
            Net: <span data-testid="order-net">{valid ? formatCents(netCents) : "—"}</span> (
            {formatCents(current.unitPriceCents)} per unit)
          </p>
          {taxLines.map((line, index) => (
            <p key={index}>
              {line.label}
              {line.rate ? `: ${valid ? formatCents(line.amountCents) : "—"}` : ""}
              {line.note ? <span className="block text-xs text-slate-600">{line.note}</span> : null}
            </p>
          ))}
          <p className="text-lg text-slate-900">
            Total with tax: <strong data-testid="order-total-with-tax">{valid ? formatCents(totalCents) : "—"}</strong>
          </p>
          <p className="text-xs text-slate-600">
            Tax for delivery to {placeWords(taxPlace)}
            {place ? "" : " (choose the delivery country to see its tax)"}. It follows the delivery address.
          </p>
        </div>
        {valid && next ? (
          <p className="w-full text-sm text-green-800" data-testid="next-break">
            {formatQuantity(next.minQuantity - number)} more units reach the next price:{" "}
            {formatCents(next.unitPriceCents)} per unit.
          </p>
        ) : null}
        {hydrated ? null : (
          // Without JavaScript the total cannot follow the typing: this re-renders it for the typed quantity and address.
          <Button variant="secondary" {...form.validate.getButtonProps({ name: fields.quantity.name })}>
            Update total
          </Button>
        )}
      </div>
      <PaymentChoice meta={fields.payment} terms={terms} />
      <SpendingLimitNotice limit={useLoaderData<typeof loader>().limit} totalCents={valid ? totalCents : null} />
      {valid ? <input type="hidden" name="quotedTotalCents" value={totalCents} /> : null}
      <ErrorList id={form.errorId} errors={form.errors} />
      <SubmitButton
        pending={isPending}
        pendingText="Placing the order…"
        disabled={hydrated && (text === "" || tooMany)}
        className="w-full"
      >
        Buy
      </SubmitButton>
    </Form>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.part.name} — PartsWorks` : "Part not found — PartsWorks" },
  { name: "description", content: data?.part.description ?? "" },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
