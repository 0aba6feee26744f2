import { parseWithZod } from "@conform-to/zod";
import { configureCoercion } from "@conform-to/zod/v3/future";
import type { ZodTypeAny } from "zod";
import {
  bodyHasTooManyFields,
  boundedQuery,
  formBeyondBounds,
  onlySchemaFields,
  TOO_MANY_FIELDS,
  UNREADABLE_CONTROL,
  type FormRefusal,
} from "~/forms/form-bounds";
import { getEnv } from "./env.server";

const FORM_TYPES = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;

function refuse({ status, message }: FormRefusal): never {
  throw new Response(message, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/**
 * Refuses, before any parse builds on it, a form (or query string) that no form of the shop sends:
 * too many fields (413), or a name past the forms' bounds (400). The answer echoes nothing sent.
 */
export function assertBoundedForm(form: FormData | URLSearchParams) {
  const refusal = formBeyondBounds(form);
  if (refusal) refuse(refusal);
}

/**
 * Every action reads its form through this. A body that is not a web form (JSON, no content type,
 * broken multipart) is a 400 with a plain message, one larger than BODY_LIMIT_BYTES a 413 (counted
 * as it arrives; the server refuses a larger Content-Length before this runs), and one past the
 * forms' bounds (FORM_LIMITS) a 413 or 400.
 */
export async function readForm(request: Request): Promise<FormData> {
  const contentType = request.headers.get("Content-Type") ?? "";
  if (!FORM_TYPES.test(contentType)) {
    refuse({
      status: 400,
      message: "This address takes a web form (application/x-www-form-urlencoded or multipart/form-data).",
    });
  }
  const body = await readLimitedBody(request, getEnv().BODY_LIMIT_BYTES);
  if (body === null) refuse({ status: 413, message: "That request is too large." });
  if (bodyHasTooManyFields(body, contentType)) refuse(TOO_MANY_FIELDS);
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { "Content-Type": contentType } }).formData();
  } catch {
    refuse({ status: 400, message: "The form could not be read. Please reload the page and send it again." });
  }
  assertBoundedForm(form);
  return form;
}

/**
 * parseWithZod for the server: a form is held to the forms' bounds, a query string keeps only the
 * names a form could have, and either is read for the schema's own fields only, so a reply never
 * carries back a field the schema does not have.
 */
/**
 * Conform's reading of form text as numbers, but decimal only: `Number()` also reads `0x10` as 16,
 * `1e3` as 1,000 and `Infinity`, which nobody types for a quantity or a price.
 */
const DECIMAL = /^\s*[+-]?(\d+\.?\d*|\.\d+)\s*$/;
const { coerceFormValue } = configureCoercion({
  type: { number: (text) => (DECIMAL.test(text) ? Number(text) : Number.NaN) },
});

/** The schema (or the schema an intent picks) with the decimal reading of numbers, unless the caller coerces itself. */
function withDecimalNumbers(options: { schema: unknown; disableAutoCoercion?: boolean }) {
  if (options.disableAutoCoercion) return options;
  const { schema } = options;
  return {
    ...options,
    disableAutoCoercion: true,
    schema:
      typeof schema === "function"
        ? (intent: unknown) => coerceFormValue((schema as (intent: unknown) => ZodTypeAny)(intent))
        : coerceFormValue(schema as ZodTypeAny),
  };
}

export const parseForm: typeof parseWithZod = ((sent: FormData | URLSearchParams, options: { schema: unknown }) => {
  // A form past the bounds is refused; a query string loses what no form has, as unknown parameters do.
  const payload = sent instanceof URLSearchParams ? boundedQuery(sent) : sent;
  if (payload instanceof FormData) assertBoundedForm(payload);
  const parse = () =>
    (parseWithZod as (p: FormData | URLSearchParams, o: unknown) => unknown)(
      onlySchemaFields(payload, options.schema),
      withDecimalNumbers(options),
    );
  if (!payload.has("__intent__")) return parse();
  // Conform throws on a list intent aimed at a field that is no list: a forged form, not a fault of ours.
  try {
    const result = parse();
    return result instanceof Promise ? result.catch(() => refuse(UNREADABLE_CONTROL)) : result;
  } catch {
    refuse(UNREADABLE_CONTROL);
  }
}) as typeof parseWithZod;

/**
 * The body's bytes, or null once it passes `limit` (counted as it arrives; the rest is left unread,
 * since cancelling would drop the connection before the answer goes out).
 */
export async function readLimitedBody(request: Request, limit: number): Promise<Buffer | null> {
  if (Number(request.headers.get("Content-Length") ?? 0) > limit) return null;
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) return null;
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
