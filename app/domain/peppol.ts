/**
 * Peppol participant identifiers: a scheme from the Peppol Electronic Address Scheme (EAS) code list
 * and a value, checked by the scheme's own rule where it has one (a GLN's check digit, a VAT number's
 * shape). A party with one is addressed by it on UBL e-invoices (its EndpointID); without one, the
 * e-invoice claims plain EN 16931, not Peppol BIS Billing 3.0 (docs/e-invoices.md).
 */
import { z } from "zod";

type Scheme = { name: string; example: string; check?: (value: string) => boolean };

/** GS1 check digit (GLN, 13 digits): weights 3 and 1 from the right, the total a multiple of ten. */
function gs1(value: string) {
  if (!/^\d{13}$/.test(value)) return false;
  const digits = [...value].map(Number);
  const sum = digits.slice(0, -1).reduce((total, digit, index) => total + digit * (index % 2 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === digits[12];
}

/** A Belgian enterprise number: ten digits, the last two 97 less the first eight modulo 97. */
function belgian(value: string) {
  if (!/^[01]\d{9}$/.test(value)) return false;
  return 97 - (Number(value.slice(0, 8)) % 97) === Number(value.slice(8));
}

/** The EAS schemes the shop's buyers use (Peppol's code list has more; these are checked). */
export const PEPPOL_SCHEMES: Record<string, Scheme> = {
  "0088": { name: "GLN (GS1 Global Location Number)", example: "5790000435975", check: gs1 },
  "0060": { name: "DUNS number", example: "123456789", check: (value) => /^\d{9}$/.test(value) },
  "0106": { name: "Dutch Chamber of Commerce (KvK)", example: "12345678", check: (value) => /^\d{8}$/.test(value) },
  "0192": { name: "Norwegian organisation number", example: "987654325", check: (value) => /^\d{9}$/.test(value) },
  "0204": {
    name: "German Leitweg-ID (public buyers)",
    example: "991-12345-67",
    check: (value) => /^\d{2,12}(-[A-Za-z0-9]{1,30})?-\d{2}$/.test(value),
  },
  "0208": { name: "Belgian enterprise number", example: "0123456749", check: belgian },
  "9906": { name: "Italian VAT number", example: "IT12345678901", check: (value) => /^IT\d{11}$/.test(value) },
  "9914": { name: "Austrian VAT number", example: "ATU12345678", check: (value) => /^ATU\d{8}$/.test(value) },
  "9920": {
    name: "Spanish VAT number",
    example: "ESX1234567X",
    check: (value) => /^ES[A-Z0-9]\d{7}[A-Z0-9]$/.test(value),
  },
  "9930": { name: "German VAT number", example: "DE123456789", check: (value) => /^DE\d{9}$/.test(value) },
  "9944": {
    name: "Dutch VAT number",
    example: "NL123456789B01",
    check: (value) => /^NL\d{9}B\d{2}$/.test(value),
  },
  "9957": {
    name: "French VAT number",
    example: "FR12345678901",
    check: (value) => /^FR[A-Z0-9]{2}\d{9}$/.test(value),
  },
};

export const PEPPOL_SCHEME_CODES = Object.keys(PEPPOL_SCHEMES);

export type PeppolId = { scheme: string; id: string };

/** "9930:DE811907980": how Peppol writes a participant identifier. */
export const peppolIdWords = (peppol: PeppolId) => `${peppol.scheme}:${peppol.id}`;

/** A Peppol participant id's fields as staff type them: a scheme from the list, and its value. */
export const peppolIdFields = z.object({
  scheme: z.enum(PEPPOL_SCHEME_CODES as [string, ...string[]], {
    errorMap: () => ({ message: "Choose the identifier's scheme" }),
  }),
  id: z
    .string({ required_error: "Enter the identifier" })
    .trim()
    .min(1, "Enter the identifier")
    .max(50, "An identifier is at most 50 characters")
    .transform((value) => value.replace(/\s+/g, "").toUpperCase()),
});

/** The value checked by its scheme's rule, the message at the value's field. */
export function checkPeppolId(value: { scheme: string; id: string }, ctx: z.RefinementCtx) {
  const scheme = PEPPOL_SCHEMES[value.scheme];
  if (scheme?.check && !scheme.check(value.id))
    ctx.addIssue({
      code: "custom",
      path: ["id"],
      message: `That is not a valid ${scheme.name}, such as ${scheme.example}`,
    });
}

/** A company's Peppol participant id: a scheme from the list and a value its rule accepts. */
export const peppolIdSchema = peppolIdFields.superRefine(checkPeppolId);
