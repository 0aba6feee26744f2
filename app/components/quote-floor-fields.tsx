import type { FieldMetadata } from "@conform-to/react";
import { Field } from "~/components/forms";
import { CURRENCIES } from "~/content/currencies";
import type { Currency } from "~/domain/money";

// Conform types a fieldset by its form; this one is Edit Product's `quoteFloors`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type FloorsMeta = FieldMetadata<Partial<Record<Currency, string>> | undefined, any, string[]>;

/**
 * "Floor price for quotes" in each currency the part has a list in: the lowest price a unit staff
 * quote it at without ticking the override (which is audited). Buyers never see it.
 */
export function QuoteFloorFields({ meta, currencies }: { meta: FloorsMeta; currencies: readonly Currency[] }) {
  const fields = meta.getFieldset();
  return (
    <fieldset className="rounded border border-slate-200 p-3 sm:col-span-2" data-testid="quote-floor-fields">
      <legend className="px-1 text-sm font-medium text-slate-800">Floor prices for quotes (staff only)</legend>
      <p className="mb-2 text-xs text-slate-600">
        Quotes below it need the override, which the audit log records. Empty: the lowest price the list reaches.
      </p>
      <div className="grid gap-x-4 sm:grid-cols-2">
        {currencies.map((currency) => (
          <Field
            key={currency}
            meta={fields[currency]}
            label={`Floor price for quotes in ${CURRENCIES[currency].plural} (${CURRENCIES[currency].symbol})`}
            inputProps={{ inputMode: "decimal", autoComplete: "off", placeholder: "9.80" }}
          />
        ))}
      </div>
    </fieldset>
  );
}
