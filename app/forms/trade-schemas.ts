/**
 * The trade account's forms (company details, address book) and the purchase-order number, shared by
 * server and browser. HTML is refused, multi-line text is bounded in lines and characters.
 */
import { z } from "zod";
import { postalAddressField, postalAddressSchema } from "~/domain/address";
import { TAX_COUNTRIES, taxIdProblem, normalizeTaxId } from "~/domain/tax-id";
import { isPlainText, plainTextMessage } from "~/domain/plain-text";

export const MAX_ADDRESSES = 20;
export const ADDRESS_MAX_LINES = 6;
export const PO_NUMBER_MAX = 35;

const HTML = /<[a-z!/?]|[<>]/i;
export const NO_HTML = "Use plain text: < and > are not allowed";

function plainText(label: string, max: number, options: { multiline?: boolean } = {}) {
  return z
    .string({ invalid_type_error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be ${max} characters or fewer`)
    .refine((value) => isPlainText(value, options), plainTextMessage(label, options))
    .refine((value) => !HTML.test(value), NO_HTML);
}

/** A postal address typed on up to ADDRESS_MAX_LINES lines. */
export function addressText(label: string) {
  return (
    z
      .string({ invalid_type_error: `${label} must be text` })
      // Browsers post a textarea's line breaks as CR LF: kept as LF, so the same address compares equal.
      .transform((value) => value.replace(/\r\n?/g, "\n"))
      .pipe(plainText(label, 300, { multiline: true }))
      .refine(
        (value) => value.split(/\r?\n/).length <= ADDRESS_MAX_LINES,
        `${label} must be ${ADDRESS_MAX_LINES} lines or fewer`,
      )
  );
}

/** A required postal address (an order's delivery address, an entry of the address book). */
export function requiredAddressText(label: string) {
  return z
    .string({ required_error: `${label} is Required`, invalid_type_error: `${label} must be text` })
    .pipe(addressText(label))
    .refine((value) => value.length > 0, `${label} is Required`);
}

/** The optional purchase-order number of an order (printed on its paperwork). */
export const poNumber = plainText("PO number", PO_NUMBER_MAX)
  .refine((value) => /^[\p{L}\p{N} ./#_-]*$/u.test(value), "Use letters, digits, spaces and . / # _ -")
  .optional();

/**
 * An address a form may leave out altogether (the company's billing address): every field empty is
 * none; anything typed is checked as a whole, as a delivery address is (postcode by country, a region
 * where the country has them). Typed as the schema, optional: the preprocess only turns "all empty" into none.
 */
const optionalAddress = z.preprocess(
  (value) =>
    value && typeof value === "object" && Object.values(value).every((field) => field === undefined || field === "")
      ? undefined
      : value,
  postalAddressSchema.optional(),
) as unknown as z.ZodOptional<typeof postalAddressSchema>;

export const companySchema = z
  .object({
    intent: z.literal("company"),
    companyName: plainText("Company name", 120).optional(),
    country: z.enum(TAX_COUNTRIES, { errorMap: () => ({ message: "Choose a country" }) }).optional(),
    taxId: plainText("VAT or tax number", 30).optional(),
    // Checked below, beside the tax number: a bad postcode stops zod before the object's own checks,
    // and both messages belong on the page at once.
    // Typed as the address it becomes, so the form's fields are typed by it too.
    billing: z.unknown().optional() as unknown as typeof optionalAddress,
  })
  .superRefine((value, ctx) => {
    const billing = optionalAddress.safeParse(value.billing);
    for (const issue of billing.error?.issues ?? []) ctx.addIssue({ ...issue, path: ["billing", ...issue.path] });
    if (!value.taxId) return;
    const problem = taxIdProblem(value.country, value.taxId);
    if (problem) ctx.addIssue({ code: "custom", path: ["taxId"], message: problem });
  })
  .transform((value) => ({
    ...value,
    taxId: value.taxId ? normalizeTaxId(value.taxId) : undefined,
    billing: optionalAddress.parse(value.billing),
  }));

const objectId = z.string({ required_error: "Choose an address" }).regex(/^[a-f0-9]{24}$/i, "Choose an address");

export const addressSchema = z.object({
  intent: z.literal("address-save"),
  /** Absent: a new address. */
  addressId: objectId.optional(),
  label: plainText("Name of the address", 60).optional(),
  postal: postalAddressField,
  makeDefault: z.boolean().optional(),
});

export const addressActionSchema = z.object({
  intent: z.enum(["address-delete", "address-default"]),
  addressId: objectId,
});
