import type { FieldMetadata } from "@conform-to/react";
import { Link, useRouteLoaderData } from "@remix-run/react";
import type { OrderPaymentMethod } from "~/domain/order-payments";
import type { RootLoader } from "~/root";
import { useEffect, useRef, useState } from "react";
import { inputAttributes, ErrorList, Field, SelectField } from "~/components/forms";
import {
  ADDRESS_LINE_MAX,
  COUNTRIES,
  countryLabel,
  postalWord,
  REGION_GROUPS,
  regionsOf,
  regionWord,
  type PostalAddress,
  type postalAddressSchema,
} from "~/domain/address";
import type { z } from "zod";
import { useHydrated } from "~/hooks/hydrated";
import { PO_NUMBER_MAX } from "~/forms/trade-schemas";
import { formatCents } from "~/format";

type Text = FieldMetadata<string | undefined>;

/** The form's starting values: the profile's phone, the chosen saved address, the address book box ticked. */
export function deliveryDefaultValues(buyer: {
  phone: string | null;
  delivery: PostalAddress;
  addressId: string | null;
}) {
  return {
    phone: buyer.phone ?? "",
    delivery: buyer.delivery,
    ...(buyer.addressId ? { addressId: buyer.addressId } : {}),
    saveAddress: "on",
    poNumber: "",
  };
}

type Place = { country: string; region: string };
// Any form's address fieldset: Conform types a field's name by its form, which differs from form to form.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AddressMeta = FieldMetadata<z.input<typeof postalAddressSchema> | undefined, any, string[]>;

/**
 * The delivery country and region the form holds now: what it started with (after a post without
 * JavaScript, what was posted), then what the buyer picks. Screens price the tax with it at once.
 */
export function useDeliveryPlace(meta: AddressMeta) {
  const fields = meta.getFieldset();
  const text = (value: unknown) => (typeof value === "string" ? value : "");
  const [place, setPlace] = useState<Place>({
    country: text(fields.country.initialValue),
    region: text(fields.region.initialValue),
  });
  return [place.country ? place : null, setPlace] as const;
}

/**
 * A postal address, field by field (names `<meta.name>.city`, …): the country from the ISO list, the
 * state or region from one list grouped by country (JavaScript narrows it to the chosen country), the
 * postal code checked on the server for the country's format. `onPlaceChange` hears the country and region.
 */
export function PostalAddressFields({
  meta,
  legend,
  section,
  onPlaceChange,
}: {
  meta: AddressMeta;
  legend: string;
  /** The autocomplete section: "shipping" or "billing". */
  section: "shipping" | "billing";
  onPlaceChange?: (place: Place) => void;
}) {
  const fields = meta.getFieldset();
  const hydrated = useHydrated();
  const [country, setCountry] = useState(
    typeof fields.country.initialValue === "string" ? fields.country.initialValue : "",
  );
  const [region, setRegion] = useState(
    typeof fields.region.initialValue === "string" ? fields.region.initialValue : "",
  );
  // A country or state chosen before the page's scripts ran is what the form holds: start from it.
  const first = useRef(true);
  useEffect(() => {
    if (!first.current) return;
    first.current = false;
    const chosen = (id: string) => (document.getElementById(id) as HTMLSelectElement | null)?.value ?? "";
    const place = { country: chosen(fields.country.id), region: chosen(fields.region.id) };
    if (place.country === country && place.region === region) return;
    setCountry(place.country);
    setRegion(place.region);
    onPlaceChange?.(place);
  }, [fields.country.id, fields.region.id, country, region, onPlaceChange]);
  const groups = hydrated ? REGION_GROUPS.filter((group) => group.country === country) : REGION_GROUPS;
  const auto = (token: string) => ({ autoComplete: `${section} ${token}` });
  return (
    <fieldset className="mb-2 rounded border border-slate-200 p-3" aria-describedby={meta.errorId}>
      <legend className="px-1 text-sm font-semibold text-slate-800">{legend}</legend>
      <Field meta={fields.name} label="Recipient (optional)" inputProps={auto("name")} />
      <Field meta={fields.company} label="Company (optional)" inputProps={auto("organization")} />
      <Field
        meta={fields.line1}
        label="Street address"
        inputProps={{ ...auto("address-line1"), maxLength: ADDRESS_LINE_MAX }}
      />
      <Field
        meta={fields.line2}
        label="Address line 2 (optional)"
        inputProps={{ ...auto("address-line2"), maxLength: ADDRESS_LINE_MAX }}
      />
      <div className="grid gap-x-3 sm:grid-cols-2">
        <Field meta={fields.city} label="City" inputProps={auto("address-level2")} />
        <Field meta={fields.postalCode} label={postalWord(country)} inputProps={auto("postal-code")} />
      </div>
      <div className="grid gap-x-3 sm:grid-cols-2">
        <SelectField
          meta={fields.country}
          label="Country"
          selectProps={{
            ...auto("country"),
            onChange: (event) => {
              const next = event.currentTarget.value;
              const keep = regionsOf(next) && region in (regionsOf(next) ?? {}) ? region : "";
              setCountry(next);
              setRegion(keep);
              onPlaceChange?.({ country: next, region: keep });
            },
          }}
        >
          <option value="">Choose a country</option>
          {COUNTRIES.map((option) => (
            <option key={option.code} value={option.code}>
              {option.name}
            </option>
          ))}
        </SelectField>
        <SelectField
          meta={fields.region}
          label={hydrated && country ? regionWord(country) : "State or region"}
          selectProps={{
            ...auto("address-level1"),
            required: false,
            disabled: hydrated && groups.length === 0,
            onChange: (event) => {
              setRegion(event.currentTarget.value);
              onPlaceChange?.({ country, region: event.currentTarget.value });
            },
          }}
        >
          <option value="">
            {hydrated && groups.length === 0 ? "None for this country" : "None (not US, CA, AU)"}
          </option>
          {groups.map((group) => (
            <optgroup key={group.country} label={countryLabel(group.country)}>
              {group.regions.map((option) => (
                <option key={`${group.country}-${option.code}`} value={option.code}>
                  {option.name}
                </option>
              ))}
            </optgroup>
          ))}
        </SelectField>
      </div>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </fieldset>
  );
}

/**
 * What every order form asks besides its lines (the part page, checkout, the quick-order pad): phone
 * and delivery address (pre-filled from the address book, changeable), "Save to my address book", and
 * the buyer's optional purchase-order number. The names match `deliveryFields` in shop-forms. A saved
 * address flagged for confirmation (kept as free text before addresses had fields) says so.
 */
export function DeliveryFields({
  fields,
  onPlaceChange,
  confirmAddress,
}: {
  fields: {
    phone: Text;
    delivery: AddressMeta;
    addressId: Text;
    saveAddress: FieldMetadata<boolean | undefined>;
    poNumber: Text;
  };
  onPlaceChange?: (place: Place) => void;
  /** The saved address as it was typed, when it still needs the buyer's confirmation. */
  confirmAddress?: string | null;
}) {
  const { key: saveKey, ...saveProps } = inputAttributes(fields.saveAddress, { type: "checkbox" });
  const { key: idKey, ...idProps } = inputAttributes(fields.addressId, { type: "hidden" });
  return (
    <>
      <Field meta={fields.phone} label="Phone" type="tel" inputProps={{ autoComplete: "tel" }} />
      {idProps.defaultValue ? <input key={idKey} {...idProps} /> : null}
      {confirmAddress ? (
        <div
          className="mb-3 rounded border-l-4 border-amber-600 bg-amber-50 p-3 text-sm text-amber-900"
          data-testid="confirm-address"
        >
          <p className="font-medium">Please check this address before you order.</p>
          <p>
            It was saved as one block of text: <span className="whitespace-pre-line">{confirmAddress}</span>. We filled
            in what we could read; check each field. Ordering to it confirms it in your address book.
          </p>
        </div>
      ) : null}
      <PostalAddressFields
        meta={fields.delivery}
        legend="Delivery address"
        section="shipping"
        onPlaceChange={onPlaceChange}
      />
      <div className="mb-2">
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

/** The buyer's delivery as an order form starts (models/address-book.server.ts `deliveryDefaults`). */
export type BuyerDelivery = Parameters<typeof deliveryDefaultValues>[0] & {
  saved: Saved[];
  confirmAddress: string | null;
};

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
