import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useMoney } from "~/components/money";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form } from "@remix-run/react";
import type { ButtonHTMLAttributes, ComponentProps } from "react";
import type { z } from "zod";
import {
  DeliveryFields,
  deliveryDefaultValues,
  PaymentChoice,
  SavedAddressPicker,
  useDeliveryPlace,
  type BuyerDelivery,
  type CheckoutTerms,
} from "~/components/delivery-fields";
import { Button, ErrorList, SubmitButton, useIsPending } from "~/components/forms";
import { SpendingLimitNotice } from "~/components/spending-limit";
import { placeWords, taxLinesFor, taxPlaceFor, taxTotal, type TaxProfile } from "~/domain/tax";
import { CART_PATH, checkoutSchema } from "~/forms/cart-forms";
import { ONE_TIME_KEY_FIELD } from "~/forms/one-time-key";
import { useHydrated } from "~/hooks/hydrated";

/**
 * The cart's checkout: delivery, payment and the total with the tax for the address the form holds,
 * ordering every line at once.
 */
export function CartCheckoutForm({
  cart,
  buyer,
  terms,
  limit,
  taxProfile,
  lastResult,
  oneTimeKey,
}: {
  oneTimeKey: string;
  cart: { netCents: number; ok: boolean };
  limit: ComponentProps<typeof SpendingLimitNotice>["limit"];
  terms: CheckoutTerms | null;
  buyer: BuyerDelivery;
  taxProfile: TaxProfile | null;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const money = useMoney();
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
            Net {money(shown.netCents)}
            {shown.taxLines.map((line, index) => (
              <span key={index} className="block">
                {line.label}: {money(line.amountCents)}
                {line.note ? <span className="block text-xs text-slate-600">{line.note}</span> : null}
              </span>
            ))}
            <strong className="block">
              Total with tax: <span data-testid="cart-total">{money(shown.totalCents)}</span>
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
          Place the order ({money(shown.totalCents)})
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
