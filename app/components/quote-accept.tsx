import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, useNavigation } from "@remix-run/react";
import type { ComponentProps } from "react";
import {
  DeliveryFields,
  deliveryDefaultValues,
  PaymentChoice,
  SavedAddressPicker,
  useDeliveryPlace,
  type BuyerDelivery,
  type CheckoutTerms,
} from "~/components/delivery-fields";
import { Button, ErrorList, SubmitButton } from "~/components/forms";
import { useMoney } from "~/components/money";
import { SpendingLimitNotice } from "~/components/spending-limit";
import { placeWords, taxLinesFor, taxPlaceFor, taxTotal, type TaxProfile } from "~/domain/tax";
import { quotePath } from "~/domain/quotes";
import { ONE_TIME_KEY_FIELD } from "~/forms/one-time-key";
import { acceptQuoteSchema } from "~/forms/quote-forms";
import { formatQuantity } from "~/format";
import { useHydrated } from "~/hooks/hydrated";

type Line = { partId: string; partNumber: string; productName: string; quantity: number; unitPriceCents: number };
type Note = { partId: string; kind: "stock" | "backorder" | "short" | "gone"; message: string };

const NOTE_CLASS: Record<Note["kind"], string> = {
  stock: "text-green-800",
  backorder: "text-amber-800",
  short: "text-red-700",
  gone: "text-red-700",
};

const asList = (value: unknown) => (Array.isArray(value) ? value.map(String) : value ? [String(value)] : []);

/**
 * Accepting the latest version: its lines at the quoted prices (some of them, when the shop allows),
 * what stock says of each now, delivery and payment as any checkout, and the total with the tax for
 * the address the form holds. The server places the order only at that total.
 */
export function QuoteAcceptForm({
  quoteId,
  version,
  notes,
  buyer,
  terms,
  limit,
  taxProfile,
  lastResult,
  oneTimeKey,
}: {
  quoteId: string;
  version: { version: number; label: string; lines: Line[]; partialAllowed: boolean };
  notes: Note[];
  buyer: BuyerDelivery;
  terms: CheckoutTerms | null;
  limit: ComponentProps<typeof SpendingLimitNotice>["limit"];
  taxProfile: TaxProfile | null;
  lastResult: SubmissionResult<string[]> | undefined;
  oneTimeKey: string;
}) {
  const money = useMoney();
  const allIds = version.lines.map((line) => line.partId);
  const [form, fields] = useForm({
    id: "accept-quote",
    lastResult,
    constraint: getZodConstraint(acceptQuoteSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: { ...deliveryDefaultValues(buyer), partIds: allIds },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: acceptQuoteSchema }),
  });
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === "accept";
  const chosen = new Set(version.partialAllowed ? asList(fields.partIds.value) : allIds);
  const netCents = version.lines
    .filter((line) => chosen.has(line.partId))
    .reduce((sum, line) => sum + line.unitPriceCents * line.quantity, 0);
  const [place, setPlace] = useDeliveryPlace(fields.delivery);
  const taxPlace = taxPlaceFor(taxProfile, place);
  const taxLines = taxLinesFor(taxProfile, netCents, taxPlace);
  const totalCents = netCents + taxTotal(taxLines);
  const noteOf = new Map(notes.map((note) => [note.partId, note]));
  return (
    <section
      aria-labelledby="accept-heading"
      className="mt-8 max-w-2xl rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id="accept-heading" className="text-xl font-semibold">
        Accept {version.label}
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Accepting places the order at the quoted prices and quantities; delivery, payment and approvals as for any
        order. Stock is checked again when you place it.
      </p>
      <Form method="post" action={quotePath(quoteId)} className="mt-4" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="accept" />
        <input type="hidden" name="version" value={version.version} />
        <input type="hidden" name={ONE_TIME_KEY_FIELD} value={oneTimeKey} />
        <input type="hidden" name="quotedTotalCents" value={totalCents} />
        <fieldset className="mb-4" aria-describedby={fields.partIds.errorId}>
          <legend className="mb-1 text-sm font-medium text-slate-800">
            {version.partialAllowed ? "The lines to order (you may leave some out)" : "The lines ordered"}
          </legend>
          <ul className="divide-y divide-slate-200 rounded border border-slate-200" data-testid="accept-lines">
            {version.lines.map((line) => {
              const note = noteOf.get(line.partId);
              const words = (
                <span>
                  <span className="font-medium">{line.partNumber}</span> {line.productName}:{" "}
                  {formatQuantity(line.quantity)} × {money(line.unitPriceCents)} ={" "}
                  {money(line.quantity * line.unitPriceCents)}
                  {note ? (
                    <span className={`block text-xs ${NOTE_CLASS[note.kind]}`} data-testid="accept-note">
                      {note.message}
                    </span>
                  ) : null}
                </span>
              );
              return (
                <li key={line.partId} className="p-3 text-sm">
                  {version.partialAllowed ? (
                    <label className="flex min-h-11 items-start gap-2">
                      <input
                        type="checkbox"
                        name={fields.partIds.name}
                        value={line.partId}
                        defaultChecked={asList(fields.partIds.initialValue).includes(line.partId)}
                        className="mt-1 h-5 w-5"
                      />
                      {words}
                    </label>
                  ) : (
                    words
                  )}
                </li>
              );
            })}
          </ul>
          <ErrorList id={fields.partIds.errorId} errors={fields.partIds.errors} />
        </fieldset>
        <SavedAddressPicker saved={buyer.saved} chosenId={buyer.addressId} />
        <DeliveryFields fields={fields} onPlaceChange={setPlace} confirmAddress={buyer.confirmAddress} />
        <PaymentChoice meta={fields.payment} terms={terms} />
        <div
          className="mb-4 rounded border border-slate-200 bg-slate-50 p-3 text-sm"
          data-testid="accept-tax"
          aria-live="polite"
        >
          <p>
            Net {money(netCents)}
            {taxLines.map((line, index) => (
              <span key={index} className="block">
                {line.label}: {money(line.amountCents)}
              </span>
            ))}
            <strong className="block">Total with tax: {money(totalCents)}</strong>
          </p>
          <p className="mt-1 text-xs text-slate-600">
            Tax for delivery to {placeWords(taxPlace)}
            {place ? "" : " (choose the delivery country to see its tax)"}. It follows the delivery address.
          </p>
          <UpdateTotalButton {...form.validate.getButtonProps({ name: fields.delivery.name })} />
        </div>
        <SpendingLimitNotice limit={limit} totalCents={totalCents} />
        <ErrorList id={form.errorId} errors={form.errors} />
        <SubmitButton pending={pending} pendingText="Placing the order…" className="w-full">
          Place the order at the quoted prices ({money(totalCents)})
        </SubmitButton>
      </Form>
    </section>
  );
}

/** Without JavaScript the total cannot follow the address or the lines chosen: this shows the new figures. */
function UpdateTotalButton(props: ComponentProps<typeof Button>) {
  const hydrated = useHydrated();
  if (hydrated) return null;
  return (
    <Button variant="secondary" className="mt-2" {...props}>
      Update total
    </Button>
  );
}
