import { BREAKS_SYNTAX_HELP } from "~/domain/pricing";
import type { FieldMetadata } from "@conform-to/react";
import type { ReactNode } from "react";
import { company } from "~/content/company";
import { CATEGORIES, CATEGORY_LABELS, DEFAULT_BRAND } from "~/domain/catalogue";
import { FITMENT_HELP } from "~/forms/catalogue-forms";
import { Field, SelectField, TextareaField } from "./forms";

const BRANDS = [DEFAULT_BRAND, ...company.brands.map((brand) => brand.name)];

type TextMeta = FieldMetadata<string | undefined | null>;
type NumberMeta = FieldMetadata<number | undefined | null>;

/** Name, description and picture: the first fields of Add and Edit Product. */
export function PartDescriptionFields({
  fields,
}: {
  fields: { name: TextMeta; description: TextMeta; img: TextMeta };
}) {
  return (
    <>
      <Field className="sm:col-span-2" meta={fields.name} label="Name" />
      <TextareaField className="sm:col-span-2" meta={fields.description} label="Description" />
      <Field
        className="sm:col-span-2"
        meta={fields.img}
        label="Image URL"
        inputProps={{ inputMode: "url", placeholder: "https://… or /images/…" }}
      />
    </>
  );
}

/**
 * Price and minimum order, as Add and Edit Product ask for them. `storedCents`: Edit Product's
 * price as stored; one with cents (from before prices were whole dollars) may stay as it is.
 */
export function PartPriceFields({
  fields,
  storedCents,
}: {
  fields: { price: NumberMeta; minOrderQuantity: NumberMeta };
  storedCents?: number;
}) {
  const withCents = storedCents !== undefined && storedCents % 100 !== 0;
  return (
    <>
      <Field
        meta={fields.price}
        label="Price per unit (whole dollars)"
        type="number"
        inputProps={{ step: withCents ? 0.01 : 1 }}
        help={
          withCents
            ? `Stored with cents before prices were whole dollars: keep ${(storedCents / 100).toFixed(2)} or type a whole price.`
            : undefined
        }
      />
      <Field meta={fields.minOrderQuantity} label="Minimum order quantity" type="number" inputProps={{ step: 1 }} />
    </>
  );
}

/**
 * Category, brand, volume breaks, OE cross-references and fitment: the catalogue part of Add and Edit
 * Product. `otherPrices`: the lists in other currencies, shown after the dollar breaks.
 */
export function PartCatalogueFields({
  fields,
  otherPrices,
}: {
  otherPrices?: ReactNode;
  fields: {
    category: FieldMetadata<string | undefined | null>;
    brand: FieldMetadata<string | undefined | null>;
    oeNumbers: FieldMetadata<string | undefined | null>;
    fitment: FieldMetadata<string | undefined | null>;
    volumeBreaks: FieldMetadata<string | undefined | null>;
  };
}) {
  return (
    <>
      <SelectField meta={fields.category} label="Category">
        <option value="">Choose a category</option>
        {CATEGORIES.map((category) => (
          <option key={category} value={category}>
            {CATEGORY_LABELS[category]}
          </option>
        ))}
      </SelectField>
      <Field
        meta={fields.brand}
        label="Brand (PartsWorks when empty)"
        inputProps={{ list: "brand-suggestions", autoComplete: "off" }}
        help={
          <>
            <datalist id="brand-suggestions">
              {BRANDS.map((brand) => (
                <option key={brand} value={brand} />
              ))}
            </datalist>
            Our lines: {BRANDS.join(", ")}.
          </>
        }
      />
      <Field
        className="sm:col-span-2"
        meta={fields.volumeBreaks}
        label="Volume breaks in US dollars (optional)"
        inputProps={{ placeholder: "100:-0%;500:-5%;1000:-10%", autoComplete: "off", spellCheck: false }}
        help={BREAKS_SYNTAX_HELP}
      />
      {otherPrices}
      <TextareaField
        className="sm:col-span-2"
        meta={fields.oeNumbers}
        label="OE cross-reference numbers (optional, one a line)"
        textareaProps={{ rows: 3, placeholder: "1K0 698 151 A\n5Q0698151" }}
      />
      <TextareaField
        className="sm:col-span-2"
        meta={fields.fitment}
        label="Fits these vehicles (optional, one a line)"
        textareaProps={{
          rows: 5,
          placeholder: "Volkswagen Golf 2013-2020 1.4 TSI\nŠkoda Octavia 2013-2019",
        }}
        help={{ id: "fitment-help", text: FITMENT_HELP }}
      />
    </>
  );
}
