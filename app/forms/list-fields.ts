/**
 * The forms with a row per order line (returns, a parcel) post each row's fields by the row's place:
 * `lines[0].quantity`, `lines[1].quantity`, … Conform builds the list from those names. A list sent
 * any other way (`lines=5`, `lines.quantity=5`, `lines[0]=5`, a row's field twice) is no form of this
 * shop, and Conform would hand it back as a value the page cannot draw as rows; it is refused before
 * parsing with a 400 that says what to do.
 */

export const MALFORMED_LIST =
  "The units of each line could not be read. Please reload the page and send the form again.";

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Whether the form sends `list` as anything but rows of `fields`, each once. */
export function isMalformedList(form: FormData | URLSearchParams, list: string, fields: readonly string[]) {
  const row = new RegExp(`^${escape(list)}\\[\\d+\\]\\.(?:${fields.map(escape).join("|")})$`);
  const seen = new Set<string>();
  for (const name of form.keys()) {
    if (name !== list && !name.startsWith(`${list}.`) && !name.startsWith(`${list}[`)) continue;
    if (!row.test(name) || seen.has(name)) return true;
    seen.add(name);
  }
  return false;
}

/** Throws the 400 answer when the form sends `list` as anything but rows of `fields`. */
export function refuseMalformedList(form: FormData | URLSearchParams, list: string, fields: readonly string[]) {
  if (!isMalformedList(form, list, fields)) return;
  throw new Response(MALFORMED_LIST, {
    status: 400,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}
