import { createCookie } from "@remix-run/node";
import { z } from "zod";
import { getEnv } from "./env.server";

/**
 * An "Add to cart" the cart refused, posted without JavaScript: the browser goes back to the page
 * it came from (the catalogue with its search, filters and page) and that page shows the message
 * at the part's card. The refusal rides in a short-lived signed cookie, read once, so no one can
 * put words on the page through a link.
 */
const CART_REFUSAL_COOKIE = "__cart_refusal";

const env = getEnv();
const refusalCookie = createCookie(CART_REFUSAL_COOKIE, {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  maxAge: 120,
  secure: env.NODE_ENV === "production" && env.PUBLIC_URL.startsWith("https:"),
  secrets: [env.SESSION_SECRET],
});

const refusalSchema = z.object({
  partId: z.string().regex(/^[a-f0-9]{24}$/i),
  quantity: z.string().max(40),
  message: z.string().max(500),
});
export type CartRefusal = z.infer<typeof refusalSchema>;

export function cartRefusalCookie(refusal: CartRefusal) {
  return refusalCookie.serialize(refusal);
}

/** The refusal waiting for this page, and the Set-Cookie that forgets it (both null when none). */
export async function takeCartRefusal(request: Request) {
  const header = request.headers.get("Cookie");
  if (!header?.includes(`${CART_REFUSAL_COOKIE}=`)) return { refusal: null, setCookie: null };
  const setCookie = await refusalCookie.serialize("", { maxAge: 0 });
  try {
    const parsed = refusalSchema.safeParse(await refusalCookie.parse(header));
    return { refusal: parsed.success ? parsed.data : null, setCookie };
  } catch {
    return { refusal: null, setCookie };
  }
}
