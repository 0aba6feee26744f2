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
