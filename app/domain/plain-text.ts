/**
 * Plain text: what a person may type into a free-text field whose words reach a page, a document,
 * a mail or an XML invoice (names, notes, reasons, labels, references). Refused: the C0 and C1
 * control characters and DEL (NUL, ESC, backspace, … make XML not well-formed and reach pages as
 * they are; a multi-line field keeps its line breaks, CR and LF), the bidi embedding, override and
 * isolate characters (U+202A–U+202E, U+2066–U+2069: they turn the text around on the page), the
 * zero-width characters (U+200B–U+200D, U+2060, U+FEFF: invisible, so two texts that look alike
 * differ), the noncharacters U+FFFE and U+FFFF and unpaired surrogates (neither is allowed in XML).
 */
import { z } from "zod";

const CONTROLS = "\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f";
const INVISIBLE = "\\u200b-\\u200d\\u2060\\ufeff\\u202a-\\u202e\\u2066-\\u2069\\ufffe\\uffff";
const UNPAIRED = "\\ud800-\\udfff";

/** In a one-line field, a tab or a line break is a control character too. */
const NOT_ONE_LINE = new RegExp(`[${CONTROLS}\\t\\n\\r${INVISIBLE}${UNPAIRED}]`, "u");
/** A multi-line field keeps its line breaks (CR LF as browsers send them); a tab is still refused. */
const NOT_MULTI_LINE = new RegExp(`[${CONTROLS}\\t${INVISIBLE}${UNPAIRED}]`, "u");

export type PlainTextOptions = { multiline?: boolean };

/** Whether `value` is plain text: see above. */
export function isPlainText(value: string, { multiline = false }: PlainTextOptions = {}) {
  return !(multiline ? NOT_MULTI_LINE : NOT_ONE_LINE).test(value);
}

/** The field's message for text that is not plain. */
export function plainTextMessage(label: string, { multiline = false }: PlainTextOptions = {}) {
  return multiline
    ? `${label} cannot contain control characters or invisible formatting characters`
    : `${label} cannot contain line breaks, control characters or invisible formatting characters`;
}

/** `schema` (a text field) refusing what is not plain text, with the field's message. */
export function plainText<Schema extends z.ZodTypeAny>(
  schema: Schema,
  label: string,
  options: PlainTextOptions = {},
): z.ZodEffects<Schema, z.output<Schema>, z.input<Schema>> {
  return schema.refine(
    (value: unknown) => typeof value !== "string" || isPlainText(value, options),
    plainTextMessage(label, options),
  );
}
