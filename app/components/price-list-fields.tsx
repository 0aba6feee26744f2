import type { FieldMetadata } from "@conform-to/react";
import type { z } from "zod";
import { CURRENCIES } from "~/content/currencies";
import { breaksSyntaxHelp, type PriceList } from "~/domain/pricing";
import { formatCents } from "~/format";
import { OTHER_CURRENCIES, type priceListsField } from "~/forms/price-list-forms";
import { Field } from "./forms";

/**
 * A part's price lists in the other currencies, one group each, as Add and Edit Product ask for
 * them: a price and volume breaks, both empty when the part is not sold in that currency.
 * `stored`: Edit Product's lists as kept; a price kept with cents may stay as it is.
 */
export function PriceListFields({
  fields,
  stored = [],
}: {
  fields: FieldMetadata<z.input<typeof priceListsField>>;
  stored?: readonly PriceList[];
}) {
  const lists = fields.getFieldset();
  return (
    <>
      {OTHER_CURRENCIES.map((currency) => {
        const { name, plural, units, symbol } = CURRENCIES[currency];
        const list = lists[currency].getFieldset();
        const storedCents = stored.find((each) => each.currency === currency)?.priceCents;
        const withCents = storedCents !== undefined && storedCents % 100 !== 0;
        return (
          <fieldset
            key={currency}
            className="mb-4 rounded border border-slate-200 p-3 sm:col-span-2"
            data-testid={`price-list-${currency}`}
          >
            <legend className="px-1 text-sm font-medium text-slate-800">Sold in {plural} (optional)</legend>
            <p className="mb-2 text-xs text-slate-600">
              Empty: the part is not sold in {plural}. Prices are never converted from dollars.
            </p>
            {storedCents !== undefined ? (
              <input type="hidden" name={list.currentPriceCents.name} value={storedCents} />
            ) : null}
            <div className="grid gap-x-4 sm:grid-cols-2">
              <Field
                meta={list.price}
                label={`${name} price per unit (whole ${units})`}
                type="number"
                inputProps={{ step: withCents ? 0.01 : 1 }}
                help={
                  withCents
                    ? `Kept with cents: keep ${symbol}${(storedCents / 100).toFixed(2)} or type a whole price.`
                    : undefined
                }
              />
              <Field
                className="sm:col-span-2"
                meta={list.volumeBreaks}
                label={`Volume breaks in ${plural} (optional)`}
                inputProps={{ placeholder: "500:-5%;1000:-10%", autoComplete: "off", spellCheck: false }}
                help={breaksSyntaxHelp(currency)}
              />
            </div>
          </fieldset>
        );
      })}
    </>
  );
}

/** Manage Products' word on a part's other lists: each price in its currency, and where it is not sold. */
export function OtherCurrencyPrices({ lists }: { lists: readonly PriceList[] }) {
  const missing = OTHER_CURRENCIES.filter((currency) => !lists.some((each) => each.currency === currency));
  return (
    <>
      {lists.length ? (
        <ul className="text-xs text-slate-800" data-testid="other-prices">
          {lists.map((list) => (
            <li key={list.currency}>
              {formatCents(list.priceCents, { currency: list.currency })}
              {list.volumeBreaks.length ? <span className="text-slate-600"> with breaks</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {missing.length ? (
        <span className="block text-xs text-slate-600" data-testid="not-sold-in">
          Not sold in {missing.join(", ")}
        </span>
      ) : null}
    </>
  );
}
