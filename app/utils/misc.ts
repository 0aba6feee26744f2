/** Shared by server and browser. */

// Intl.NumberFormat is costly to construct: one per shape, made once.
const WHOLE_DOLLARS = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 0 });
const DOLLARS_AND_CENTS = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 2,
});

const PLAIN_WHOLE = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0, useGrouping: false });
const PLAIN_CENTS = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, useGrouping: false });

/**
 * The one way the shop writes money it keeps as integer cents, on every screen, document, mail and
 * CSV: whole dollars without cents ("$1,250"), any other amount with two decimals ("$7,248.80").
 * `plain` drops the sign and the grouping, for a spreadsheet or a machine to read ("1250", "7248.80").
 */
export function formatCents(cents: number, { plain = false }: { plain?: boolean } = {}) {
  const whole = cents % 100 === 0;
  const format = plain ? (whole ? PLAIN_WHOLE : PLAIN_CENTS) : whole ? WHOLE_DOLLARS : DOLLARS_AND_CENTS;
  return format.format(cents / 100);
}

export function truncate(text: string, max: number) {
  return text.length > max ? `${text.slice(0, max).trimEnd()}…` : text;
}

/** Control characters and backslashes: browsers drop or rewrite them, so `/\t/evil.example` becomes `//evil.example`. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE_IN_PATH = /[\u0000-\u001f\u007f\\]/;
const SHOP = "http://shop.invalid";

/**
 * A path on this shop to go back to after sign-in; anything else falls back to `fallback`.
 * The value must be a path that, resolved against the shop's own origin, stays on it; it must
 * hold no control character or backslash, raw or percent-encoded (once or twice), and no
 * encoded form of `//` at its start.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/") {
  if (!to || typeof to !== "string" || to.length > 2000) return fallback;
  if (!to.startsWith("/") || to.startsWith("//")) return fallback;
  let decoded = to;
  for (let round = 0; round < 3; round++) {
    if (UNSAFE_IN_PATH.test(decoded) || decoded.startsWith("//")) return fallback;
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      // Broken encoding as given is refused; a literal "%" that one decoding revealed ("50%25") is fine.
      if (round === 0) return fallback;
      break;
    }
    if (next === decoded) break;
    decoded = next;
  }
  if (UNSAFE_IN_PATH.test(decoded) || decoded.startsWith("//")) return fallback;
  // Returned as given: normalising it (`/.//host` → `//host`) is what would take it off the shop.
  return new URL(to, SHOP).origin === SHOP ? to : fallback;
}
