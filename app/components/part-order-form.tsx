/** The part page's prices at each volume break and its order form. */
import { useMoney } from "~/components/money";
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form } from "@remix-run/react";
import { useMemo, useState, type ComponentProps } from "react";
import {
  DeliveryFields,
  deliveryDefaultValues,
  PaymentChoice,
  SavedAddressPicker,
  useDeliveryPlace,
  type BuyerDelivery,
  type CheckoutTerms,
} from "~/components/delivery-fields";
import { Button, ErrorList, Field, SubmitButton, useIsPending } from "~/components/forms";
import { PriceWithList } from "~/components/prices";
import { SpendingLimitNotice } from "~/components/spending-limit";
import { backorderSplit, backorderText } from "~/domain/order-lines";
import { placeWords, taxLinesFor, taxPlaceFor, taxTotal, type TaxProfile } from "~/domain/tax";
import { formatQuantity } from "~/format";
import { orderFormSchema } from "~/forms/shop-forms";
import { ONE_TIME_KEY_FIELD } from "~/forms/one-time-key";
import { useHydrated } from "~/hooks/hydrated";

/** The unit price from `minQuantity` units on (the customer's own, with the list price beside it). */
type VolumePrice = { minQuantity: number; unitPriceCents: number; listPriceCents: number | null };

/** What the form needs of the part: its order limits and, for a backorder, when stock is expected. */
type OrderedPart = {
  id: string;
  minOrderQuantity: number;
  availableQuantity: number;
  backorderable?: boolean;
  restockOn?: string | null;
  leadTimeDays?: number | null;
};

/** The unit price at each volume break, when there is more than one price. */
export function VolumePrices({ prices }: { prices: VolumePrice[] }) {
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
function priceAt(prices: VolumePrice[], quantity: number) {
  let current = prices[0];
  for (const row of prices) if (quantity >= row.minQuantity) current = row;
  const next = prices.find((row) => row.minQuantity > quantity && row.unitPriceCents < current.unitPriceCents) ?? null;
  return { current, next };
}

/**
 * The part page's order form: quantity, delivery and payment, with the net, the tax for the address
 * the form holds and the total, the backorder split and the next volume price, as the server prices them.
 */
export function PartOrderForm({
  part,
  prices,
  buyer,
  terms,
  taxProfile,
  limit,
  oneTimeKey,
  lastResult,
}: {
  part: OrderedPart;
  prices: VolumePrice[];
  buyer: BuyerDelivery & { name: string; email: string };
  terms: CheckoutTerms | null;
  taxProfile: TaxProfile | null;
  limit: ComponentProps<typeof SpendingLimitNotice>["limit"];
  oneTimeKey: string;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const money = useMoney();
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
            Net: <span data-testid="order-net">{valid ? money(netCents) : "—"}</span> ({money(current.unitPriceCents)}{" "}
            per unit)
          </p>
          {taxLines.map((line, index) => (
            <p key={index}>
              {line.label}
              {line.rate ? `: ${valid ? money(line.amountCents) : "—"}` : ""}
              {line.note ? <span className="block text-xs text-slate-600">{line.note}</span> : null}
            </p>
          ))}
          <p className="text-lg text-slate-900">
            Total with tax: <strong data-testid="order-total-with-tax">{valid ? money(totalCents) : "—"}</strong>
          </p>
          <p className="text-xs text-slate-600">
            Tax for delivery to {placeWords(taxPlace)}
            {place ? "" : " (choose the delivery country to see its tax)"}. It follows the delivery address.
          </p>
        </div>
        {valid && next ? (
          <p className="w-full text-sm text-green-800" data-testid="next-break">
            {formatQuantity(next.minQuantity - number)} more units reach the next price: {money(next.unitPriceCents)}{" "}
            per unit.
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
      <SpendingLimitNotice limit={limit} totalCents={valid ? totalCents : null} />
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
