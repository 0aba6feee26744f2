/**
 * The shape every form of the shop stays within, and what a schema reads: checked on the server
 * before anything builds arrays or objects from a form's names (app/services/form.server.ts).
 */
import { z } from "zod";
import { MAX_ORDER_LINES } from "~/domain/order-lines";

/**
 * What the shop's largest forms hold, with room to spare: a line form posts a field or two per order
 * line (at most MAX_ORDER_LINES), names go three deep (`lines[3].quantity`, `billing.line1`), and
 * Conform's own fields are small JSON.
 */
export const FORM_LIMITS = {
  fields: MAX_ORDER_LINES * 2 + 64,
  /** The highest list index a form may use: one per order line. */
  index: MAX_ORDER_LINES - 1,
  depth: 4,
  nameLength: 100,
  /** Conform's `__intent__` and `__state__`, parsed as JSON on the server. */
  controlBytes: 2048,
} as const;

export const CONFORM_FIELDS = new Set(["__intent__", "__state__"]);

export type FormRefusal = { status: 400 | 413; message: string };

export const TOO_MANY_FIELDS: FormRefusal = {
  status: 413,
  message: "That form has more fields than any form of this shop.",
};
export const UNKNOWN_FIELD: FormRefusal = {
  status: 400,
  message: "That form has a field this shop does not know. Please reload the page and send it again.",
};
export const UNREADABLE_CONTROL: FormRefusal = {
  status: 400,
  message: "That form could not be read. Please reload the page and send it again.",
};

// Conform's own reading of a name: keys, and [n] list indexes, joined by single dots.
const PATH_TOKEN = /([^.[\]]+)|\[(\d*)\]/g;
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** Whether a field name is one a form of the shop could send: a real path, short, shallow, in bounds. */
export function isBoundedName(name: string): boolean {
  if (name.length === 0 || name.length > FORM_LIMITS.nameLength) return false;
  let depth = 0;
  let end = 0;
  for (const match of name.matchAll(PATH_TOKEN)) {
    const start = match.index ?? 0;
    if (start !== end && !(start === end + 1 && name[end] === ".")) return false;
    const [, key, index] = match;
    if (key !== undefined && FORBIDDEN_KEYS.has(key)) return false;
    if (index !== undefined && (index === "" || Number(index) > FORM_LIMITS.index)) return false;
    end = start + match[0].length;
    if (++depth > FORM_LIMITS.depth) return false;
  }
  return end === name.length;
}

/** Conform's control fields: small JSON, and any list index within the forms' bound. */
function isBoundedControl(value: FormDataEntryValue): boolean {
  if (typeof value !== "string" || value.length > FORM_LIMITS.controlBytes) return false;
  try {
    const index = (JSON.parse(value) as { payload?: { index?: unknown } } | null)?.payload?.index;
    return (
      index === undefined ||
      (Number.isInteger(index) && (index as number) >= 0 && (index as number) <= FORM_LIMITS.index)
    );
  } catch {
    return false;
  }
}

const AMPERSAND = 0x26;

/**
 * Whether a body holds more fields than any form, counted on its bytes before any parser builds a
 * field list from them (a parser takes a tenth of a second for 80,000 fields): `&` separators of a
 * URL-encoded body, boundaries of a multipart one.
 */
export function bodyHasTooManyFields(body: Uint8Array, contentType: string): boolean {
  const limit = FORM_LIMITS.fields;
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (/^\s*multipart\//i.test(contentType) && boundary) {
    const marker = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
    const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    let parts = -1;
    for (let at = bytes.indexOf(marker); at !== -1; at = bytes.indexOf(marker, at + marker.length)) {
      if (++parts > limit) return true;
    }
    return false;
  }
  let fields = 1;
  for (let at = body.indexOf(AMPERSAND); at !== -1; at = body.indexOf(AMPERSAND, at + 1)) {
    if (++fields > limit) return true;
  }
  return false;
}

/** Why no form of the shop looks like this one (too many fields, or a name past the bounds), or null. */
export function formBeyondBounds(form: FormData | URLSearchParams): FormRefusal | null {
  let count = 0;
  for (const [name, value] of form.entries()) {
    if (++count > FORM_LIMITS.fields) return TOO_MANY_FIELDS;
    if (CONFORM_FIELDS.has(name)) {
      if (!isBoundedControl(value)) return UNREADABLE_CONTROL;
    } else if (!isBoundedName(name)) {
      return UNKNOWN_FIELD;
    }
  }
  return null;
}

/**
 * A query string as a page reads it: names no form has (`x[5000000]`, `category[$ne]`) and fields past
 * the forms' count are dropped, as unknown parameters are, rather than refused.
 */
export function boundedQuery(query: URLSearchParams): URLSearchParams {
  const kept = new URLSearchParams();
  let count = 0;
  for (const [name, value] of query.entries()) {
    if (count >= FORM_LIMITS.fields) break;
    if (CONFORM_FIELDS.has(name) || !isBoundedName(name)) continue;
    kept.append(name, value);
    count++;
  }
  return kept;
}

/** The names a schema reads at its top level, or null where it takes any (passthrough, records, unknown). */
export function schemaFieldNames(schema: z.ZodTypeAny): Set<string> | null {
  const def = schema._def as { typeName?: string } & Record<string, unknown>;
  switch (def.typeName) {
    case "ZodObject": {
      const object = schema as z.AnyZodObject;
      if (object._def.unknownKeys === "passthrough" || !(object._def.catchall instanceof z.ZodNever)) return null;
      return new Set(Object.keys(object.shape as object));
    }
    case "ZodEffects":
      return schemaFieldNames(def.schema as z.ZodTypeAny);
    case "ZodPipeline":
      return schemaFieldNames(def.in as z.ZodTypeAny);
    case "ZodOptional":
    case "ZodNullable":
    case "ZodDefault":
    case "ZodCatch":
    case "ZodReadonly":
      return schemaFieldNames(def.innerType as z.ZodTypeAny);
    case "ZodBranded":
      return schemaFieldNames(def.type as z.ZodTypeAny);
    case "ZodLazy":
      return schemaFieldNames((def.getter as () => z.ZodTypeAny)());
    case "ZodUnion":
    case "ZodDiscriminatedUnion":
      return union([...(def.options as Iterable<z.ZodTypeAny>)].map(schemaFieldNames));
    case "ZodIntersection":
      return union([schemaFieldNames(def.left as z.ZodTypeAny), schemaFieldNames(def.right as z.ZodTypeAny)]);
    default:
      return null;
  }
}

function union(sets: (Set<string> | null)[]) {
  if (sets.some((set) => set === null)) return null;
  return new Set(sets.flatMap((set) => [...set!]));
}

const rootName = (name: string) => /^[^.[]*/.exec(name)![0];

/** The form with only the fields `schema` reads (and Conform's own), so a reply echoes nothing else. */
export function onlySchemaFields<P extends FormData | URLSearchParams>(payload: P, schema: unknown): P {
  const names = typeof schema === "function" ? null : schemaFieldNames(schema as z.ZodTypeAny);
  if (!names) return payload;
  const kept = (payload instanceof URLSearchParams ? new URLSearchParams() : new FormData()) as P;
  for (const [name, value] of payload.entries()) {
    if (CONFORM_FIELDS.has(name) || names.has(rootName(name))) kept.append(name, value as string);
  }
  return kept;
}
