import { type FieldMetadata } from "@conform-to/react";
import { Link, useRouteLoaderData } from "@remix-run/react";
import type { OrderPaymentMethod } from "~/domain/order-payments";
import type { RootLoader } from "~/root";
import { inputAttributes, ErrorList, Field, TextareaField } from "~/components/forms";
import { PO_NUMBER_MAX } from "~/utils/trade-schemas";
import { formatCents } from "~/format";

type Text = FieldMetadata<string | undefined>;

/** The form's starting values: the profile's phone and default delivery address, the address book box ticked. */
export function deliveryDefaultValues(buyer: { phone: string | null; address: string | null }) {
  return { phone: buyer.phone ?? "", address: buyer.address ?? "", saveAddress: "on", poNumber: "" };
}

/**
 * What every order form asks besides its lines (the part page, checkout, the quick-order pad): phone
 * and delivery address (pre-filled from the profile, changeable), "Save to my address book", and the
 * buyer's optional purchase-order number. The names match `deliveryFields` in shop-forms.
 */
export function DeliveryFields({
  fields,
}: {
  fields: { phone: Text; address: Text; saveAddress: FieldMetadata<boolean | undefined>; poNumber: Text };
}) {
  const { key: saveKey, ...saveProps } = inputAttributes(fields.saveAddress, { type: "checkbox" });
  return (
    <>
      <Field meta={fields.phone} label="Phone" type="tel" inputProps={{ autoComplete: "tel" }} />
      <TextareaField
        meta={fields.address}
        label="Address"
        textareaProps={{ rows: 3, autoComplete: "shipping street-address" }}
      />
      <div className="-mt-3 mb-2">
        <label className="flex min-h-11 items-center gap-2 text-slate-800">
          <input key={saveKey} {...saveProps} className="h-5 w-5" />
          Save to my address book
        </label>
        <ErrorList id={fields.saveAddress.errorId} errors={fields.saveAddress.errors} />
      </div>
      <Field
        meta={fields.poNumber}
        label="PO number (optional)"
        inputProps={{ maxLength: PO_NUMBER_MAX, autoComplete: "off" }}
        help={`Your purchase-order number, up to ${PO_NUMBER_MAX} characters. It appears on the order and its paperwork.`}
      />
    </>
  );
}

type Saved = { id: string; label: string; address: string };

/**
 * The other addresses of the address book, as links that re-render the order form with one of them
 * (`?deliverTo=id`): the same with and without JavaScript. Nothing when the book has one address or none.
 */
export function SavedAddressPicker({ saved, chosenId }: { saved: Saved[]; chosenId: string | null }) {
  const others = saved.filter((entry) => entry.id !== chosenId);
  if (saved.length < 2 || others.length === 0) return null;
  return (
    <details className="mb-3 text-sm">
      <summary className="flex min-h-11 cursor-pointer items-center font-medium text-brand-700">
        Deliver to another saved address
      </summary>
      <ul className="space-y-1 pl-4">
        {others.map((entry) => (
          <li key={entry.id}>
            <Link to={`?deliverTo=${entry.id}`} replace preventScrollReset className="text-brand-700 underline">
              {entry.label ? `${entry.label}: ` : ""}
              {entry.address.replace(/\n/g, ", ")}
            </Link>
          </li>
        ))}
      </ul>
    </details>
  );
}

export type CheckoutTerms = {
  termsDays: number;
  creditLimitCents: number;
  balanceCents: number;
  availableCents: number;
};

/**
 * How to pay: card (the default where card payment is set up), bank transfer against the pro-forma
 * (the order holds its stock until the money arrives), and on account for a customer with payment
 * terms (the server refuses "account" from the others too).
 */
export function PaymentChoice({
  meta,
  terms,
}: {
  meta: FieldMetadata<OrderPaymentMethod | undefined>;
  terms: CheckoutTerms | null;
}) {
  const cardPayments = useRouteLoaderData<RootLoader>("root")?.env.cardPayments ?? false;
  const choices = [
    ...(cardPayments
      ? [{ value: "card", label: "Pay by card", help: "Pay now through our card page; we ship once it is paid." }]
      : []),
    {
      value: "bank-transfer",
      label: "Bank transfer (pro-forma)",
      help: "We hold the stock while you pay by bank transfer, quoting the order number; the pro-forma has our bank details. We ship once the money arrives.",
    },
    ...(terms
      ? [
          {
            value: "account",
            label: `On account (net ${terms.termsDays} days)`,
            help: `Confirmed at once and invoiced, due ${terms.termsDays} days after. ${formatCents(terms.availableCents)} of your ${formatCents(terms.creditLimitCents)} credit limit is available.`,
          },
        ]
      : []),
  ];
  const initial = meta.initialValue ?? choices[0].value;
  return (
    <fieldset className="mb-2" aria-describedby={meta.errorId}>
      <legend className="mb-1 text-sm font-medium text-slate-800">Payment</legend>
      {choices.map((choice) => {
        const { key, ...props } = inputAttributes(meta, { type: "radio", value: choice.value });
        return (
          <label key={choice.value} className="flex min-h-11 items-start gap-2 py-1 text-slate-800">
            <input
              key={key}
              {...props}
              // One id per radio (the label wraps it): the field's own id would repeat.
              id={`${meta.id}-${choice.value}`}
              defaultChecked={initial === choice.value}
              className="mt-1 h-5 w-5"
            />
            <span>
              <span className="font-medium">{choice.label}</span>
              <span className="block text-xs text-slate-600">{choice.help}</span>
            </span>
          </label>
        );
      })}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </fieldset>
  );
}
