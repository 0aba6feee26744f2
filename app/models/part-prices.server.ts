/** A part's prices as stored: its volume breaks and its price lists in other currencies than the home one. */
import { Schema } from "mongoose";
import { CURRENCY_CODES, OTHER_CURRENCIES, type Currency } from "~/domain/money";
import type { PriceList, VolumeBreak } from "~/domain/pricing";

export const breaksOf = (breaks: readonly Partial<VolumeBreak>[] | null | undefined): VolumeBreak[] =>
  (breaks ?? []).map((item) => ({
    minQuantity: item.minQuantity ?? 1,
    percentOff: item.percentOff ?? null,
    unitPriceCents: item.unitPriceCents ?? null,
  }));

/** The stored price lists as pricing reads them (in the order of the currencies). */
export function priceListsOf(
  lists:
    | readonly { currency?: string | null; priceCents?: number | null; volumeBreaks?: Partial<VolumeBreak>[] | null }[]
    | null
    | undefined,
): PriceList[] {
  return (lists ?? [])
    .flatMap((list) =>
      list.currency && list.priceCents
        ? [
            {
              currency: list.currency as Currency,
              priceCents: list.priceCents,
              volumeBreaks: breaksOf(list.volumeBreaks),
            },
          ]
        : [],
    )
    .sort((a, b) => CURRENCY_CODES.indexOf(a.currency) - CURRENCY_CODES.indexOf(b.currency));
}

export const volumeBreakSchema = new Schema(
  {
    minQuantity: { type: Number, required: true, min: 1, validate: Number.isInteger },
    percentOff: { type: Number, min: 0, max: 99.99, default: null },
    unitPriceCents: {
      type: Number,
      min: 1,
      default: null,
      validate: (v: number | null) => v === null || Number.isInteger(v),
    },
  },
  { _id: false },
);

export const priceListSchema = new Schema(
  {
    currency: { type: String, required: true, enum: OTHER_CURRENCIES },
    priceCents: { type: Number, required: true, min: 1, validate: Number.isInteger },
    volumeBreaks: { type: [volumeBreakSchema], default: undefined },
  },
  { _id: false },
);

export const quoteFloorSchema = new Schema(
  {
    currency: { type: String, required: true, enum: CURRENCY_CODES },
    priceCents: { type: Number, required: true, min: 1, validate: Number.isInteger },
  },
  { _id: false },
);

/** The floors staff set for quotes, in `currency`, by part id (a part without one is absent). */
export function floorsIn(
  docs: readonly {
    _id: { toString(): string };
    quoteFloors?: readonly { currency?: string | null; priceCents?: number | null }[] | null;
  }[],
  currency: Currency,
) {
  return new Map(
    docs.flatMap((doc) => {
      const floor = doc.quoteFloors?.find((each) => each.currency === currency)?.priceCents;
      return floor ? [[doc._id.toString(), floor] as const] : [];
    }),
  );
}
