import { CATEGORY_LABELS, formatFitmentRow, type Category, type FitmentRow } from "~/domain/catalogue";
import { formatCents } from "~/format";

type Catalogue = { category: Category; brand: string; oeNumbers: string[]; fitment: FitmentRow[] };

/** Brand, category, OE cross-references and the vehicles a part fits, on the part page. */
export function PartCatalogueDetails({ catalogue }: { catalogue: Catalogue }) {
  return (
    <section aria-labelledby="catalogue-heading" className="mt-6">
      <h2 id="catalogue-heading" className="text-xl font-semibold text-slate-900">
        Catalogue details
      </h2>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-600">Brand</dt>
        <dd data-testid="brand">{catalogue.brand}</dd>
        <dt className="text-slate-600">Category</dt>
        <dd data-testid="category">{CATEGORY_LABELS[catalogue.category] ?? catalogue.category}</dd>
        <dt className="text-slate-600">OE numbers</dt>
        <dd data-testid="oe-numbers">{catalogue.oeNumbers.length ? catalogue.oeNumbers.join(", ") : "None listed"}</dd>
      </dl>
      <h3 className="mt-4 font-semibold text-slate-900">Fits these vehicles</h3>
      {catalogue.fitment.length ? (
        <ul className="mt-1 list-disc pl-5 text-sm text-slate-800" aria-label="Fits these vehicles">
          {catalogue.fitment.map((row) => (
            <li key={formatFitmentRow(row)}>{formatFitmentRow(row)}</li>
          ))}
        </ul>
      ) : (
        <p className="mt-1 text-sm text-slate-700">Universal fit or not listed: check the description.</p>
      )}
    </section>
  );
}

/**
 * schema.org Product JSON-LD of a part: name, sku (the part number), brand, and an offer with
 * the unit price, currency and availability (in stock when the minimum order can be met).
 */
export function partJsonLd({
  part,
  catalogue,
  origin,
}: {
  part: {
    id: string;
    name: string;
    partNumber: string;
    description: string;
    img: string;
    priceCents: number;
    minOrderQuantity: number;
    availableQuantity: number;
  };
  catalogue: Catalogue;
  origin: string;
}) {
  const url = `${origin}/parts/${part.id}`;
  const data = {
    "@context": "https://schema.org",
    "@type": "Product",
    name: part.name,
    sku: part.partNumber,
    mpn: part.partNumber,
    description: part.description,
    image: part.img.startsWith("/") ? `${origin}${part.img}` : part.img,
    url,
    category: CATEGORY_LABELS[catalogue.category] ?? catalogue.category,
    brand: { "@type": "Brand", name: catalogue.brand },
    offers: {
      "@type": "Offer",
      url,
      price: formatCents(part.priceCents, { plain: true }),
      priceCurrency: "USD",
      availability:
        part.availableQuantity >= part.minOrderQuantity
          ? "https://schema.org/InStock"
          : "https://schema.org/OutOfStock",
      eligibleQuantity: { "@type": "QuantitativeValue", minValue: part.minOrderQuantity },
    },
  };
  return JSON.stringify(data).replace(/</g, "\\u003c");
}
