/**
 * The Leitweg-ID: how a German public buyer is addressed on XRechnung e-invoices (its buyer reference,
 * BT-10). KoSIT's format specification: a coarse address of 2 to 12 digits, an optional fine address of
 * up to 30 letters and digits, and 2 check digits, joined by hyphens ("04011000-1234512345-06"). The check
 * digits are ISO/IEC 7064 MOD 97-10 over the ID without hyphens, letters counted A = 10 … Z = 35: the whole
 * number modulo 97 is 1. Only a German company has one (docs/e-invoices.md, "XRechnung").
 */
import { z } from "zod";

export const LEITWEG_EXAMPLE = "04011000-1234512345-06";
const SHAPE = /^(\d{2,12})(?:-([A-Z0-9]{1,30}))?-(\d{2})$/;

export const LEITWEG_MESSAGES = {
  required: "Enter the Leitweg-ID",
  shape: `A Leitweg-ID is a coarse address of 2 to 12 digits, an optional fine address of up to 30 letters and digits, and 2 check digits, joined by hyphens, such as ${LEITWEG_EXAMPLE}`,
  checkDigits: (expected: string) =>
    `The check digits of that Leitweg-ID are wrong (for the rest of it they would be ${expected}): check it for a typing error`,
  notGerman: (country: string) =>
    `Only a German company (country DE) has a Leitweg-ID; this company's country is ${country || "not set"}`,
} as const;

/** The ID as digits: letters become their place counted from A = 10 (Z = 35), hyphens are dropped. */
const digitsOf = (id: string) =>
  [...id.replace(/-/g, "")].map((char) => (/\d/.test(char) ? char : String(char.charCodeAt(0) - 55))).join("");

/** The remainder modulo 97 of a long decimal string, a few digits at a time (no BigInt needed). */
function mod97(digits: string) {
  let remainder = 0;
  for (let at = 0; at < digits.length; at += 7) remainder = Number(`${remainder}${digits.slice(at, at + 7)}`) % 97;
  return remainder;
}

/** The two check digits the ID's coarse and fine address call for (98 less the remainder of them and "00"). */
export function leitwegCheckDigits(withoutCheck: string) {
  return String(98 - mod97(`${digitsOf(withoutCheck.toUpperCase())}00`)).padStart(2, "0");
}

/** "991-33333test-33 " as staff type it: spaces dropped, letters upper-case. */
export const normalizeLeitwegId = (value: string) => value.replace(/\s+/g, "").toUpperCase();

/** What is wrong with a Leitweg-ID (already normalized), or null when it is one. */
export function leitwegIdProblem(id: string): string | null {
  if (!id) return LEITWEG_MESSAGES.required;
  const parts = SHAPE.exec(id);
  if (!parts) return LEITWEG_MESSAGES.shape;
  if (mod97(digitsOf(id)) !== 1) {
    return LEITWEG_MESSAGES.checkDigits(leitwegCheckDigits(id.slice(0, -3)));
  }
  return null;
}

/** The Leitweg-ID field as staff type it, checked; the message at the field. */
export const leitwegIdField = z
  .string({ required_error: LEITWEG_MESSAGES.required })
  .trim()
  .max(60, LEITWEG_MESSAGES.shape)
  .transform(normalizeLeitwegId)
  .superRefine((id, ctx) => {
    const problem = leitwegIdProblem(id);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

/** A company may hold a Leitweg-ID only when it is German (its country is DE). */
export const mayHoldLeitwegId = (country: string) => country === "DE";

/** The Leitweg-ID form's fields, as staff type them. */
export const leitwegIdFields = z.object({ leitwegId: leitwegIdField });

/** The company's country checked with the form: one that is not DE is refused at the field. */
export const checkLeitwegCountry = (country: string) => (_value: unknown, ctx: z.RefinementCtx) => {
  if (!mayHoldLeitwegId(country))
    ctx.addIssue({ code: "custom", path: ["leitwegId"], message: LEITWEG_MESSAGES.notGerman(country) });
};
