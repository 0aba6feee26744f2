import { Link } from "@remix-run/react";
import { AddToCartForm, type AddToCartRefusal } from "~/components/add-to-cart";
import type { PartView } from "~/domain/catalogue";
import { NotSoldIn, PriceWithList } from "~/components/prices";
import type { Currency } from "~/domain/money";
import { formatQuantity } from "~/format";

/** What a card shows of a part; `fits`: it fits the visitor's vehicle (named by `fitsLabel`). */
export type PartCardData = Omit<PartView, "createdAt"> & {
  brand?: string;
  fits?: boolean;
  listPriceCents?: number;
  /** The currency shown, and whether the part has no price list in it (not orderable in it). */
  currency?: Currency;
  unpriced?: boolean;
};

/** A part in the catalogue: image, name, short description, quantities, price and Purchase. */
export function PartCard({
  part,
  headingLevel = 3,
  eager = false,
  addToCart = false,
  fitsLabel = null,
  refusal = null,
}: {
  part: PartCardData;
  headingLevel?: 2 | 3;
  /** An Add to cart of this part that the cart refused (posted without JavaScript). */
  refusal?: AddToCartRefusal | null;
  /** The visitor's vehicle ("2016 Volkswagen Golf"), for the line on the cards that fit it. */
  fitsLabel?: string | null;
  /** Above the fold: load the image at once instead of lazily. */
  eager?: boolean;
  /** Show an Add to cart form (on /parts, not for admins). */
  addToCart?: boolean;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    // On a phone the card is compact: a thumbnail beside the name, two lines of description.
    <article className="flex h-full flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm">
      <div className="flex gap-3 p-3 pb-0 sm:block sm:p-0">
        <img
          src={part.img}
          alt={part.name}
          width={400}
          height={250}
          loading={eager ? "eager" : "lazy"}
          decoding="async"
          className="h-16 w-24 shrink-0 rounded bg-slate-100 object-cover sm:aspect-[8/5] sm:h-auto sm:w-full sm:rounded-none"
        />
        <div className="min-w-0 [overflow-wrap:anywhere] sm:px-5 sm:pt-5">
          <Heading className="text-base font-semibold text-slate-900 sm:text-lg">{part.name}</Heading>
          <p className="text-xs font-medium uppercase tracking-wide text-slate-600">
            {part.partNumber}
            {part.brand ? <span className="normal-case"> · {part.brand}</span> : null}
          </p>
          {fitsLabel && part.fits ? (
            <p className="mt-1 text-sm font-medium text-green-800" data-testid="fits">
              <span aria-hidden="true">✓ </span>Fits your {fitsLabel}
            </p>
          ) : null}
        </div>
      </div>
      <div className="flex flex-1 flex-col p-3 pt-0 sm:p-5 sm:pt-0">
        <p className="mt-2 flex-1 text-sm text-slate-700 max-sm:line-clamp-2">{part.description}</p>
        <dl className="mt-2 grid grid-cols-2 gap-x-4 text-sm sm:mt-4 sm:gap-y-1">
          <dt className="text-slate-600">Minimum order</dt>
          <dd className="text-right font-medium" data-testid="min-order">
            {formatQuantity(part.minOrderQuantity)} units
          </dd>
          <dt className="text-slate-600">Available</dt>
          <dd className="text-right font-medium" data-testid="available">
            {formatQuantity(part.availableQuantity)} units
          </dd>
          <dt className="text-slate-600">Price per unit</dt>
          <dd className="text-right text-base font-bold text-brand-800" data-testid="price">
            {part.unpriced && part.currency ? (
              <NotSoldIn currency={part.currency} />
            ) : (
              <PriceWithList cents={part.priceCents} listCents={part.listPriceCents} />
            )}
          </dd>
        </dl>
        <Link
          to={`/parts/${part.id}`}
          className="mt-3 inline-flex min-h-11 items-center justify-center rounded bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-800 sm:mt-5"
        >
          Purchase<span className="sr-only"> {part.name}</span>
        </Link>
        {addToCart && !part.unpriced && part.availableQuantity >= part.minOrderQuantity ? (
          <AddToCartForm part={part} compact refusal={refusal} />
        ) : null}
      </div>
    </article>
  );
}

/** Cards in a grid: one column on phones, two on tablets, three on large screens. */
export function PartGrid({
  parts,
  headingLevel,
  eagerCount = 0,
  label,
  addToCart = false,
  fitsLabel = null,
  refusal = null,
}: {
  parts: PartCardData[];
  headingLevel?: 2 | 3;
  eagerCount?: number;
  label: string;
  addToCart?: boolean;
  fitsLabel?: string | null;
  refusal?: (AddToCartRefusal & { partId: string }) | null;
}) {
  return (
    <ul aria-label={label} className="grid gap-4 sm:grid-cols-2 sm:gap-6 lg:grid-cols-3">
      {parts.map((part, index) => (
        // The card's id is the place a refused Add to cart comes back to (#part-…).
        <li key={part.id} id={`part-${part.id}`} className="scroll-mt-4">
          <PartCard
            part={part}
            headingLevel={headingLevel}
            eager={index < eagerCount}
            addToCart={addToCart}
            fitsLabel={fitsLabel}
            refusal={refusal?.partId === part.id ? refusal : null}
          />
        </li>
      ))}
    </ul>
  );
}
