/**
 * What a visitor was doing when the shop asked them to sign in: an Add to cart or a Buy (a part and
 * a quantity), or the quick-order pad's lines. It waits in a signed, short-lived cookie (no
 * JavaScript needed) through Login, Create account and Google, and is completed (the line goes into
 * the cart) or offered back (the pad is filled again) right after the sign-in.
 */
import { createCookie, redirect } from "@remix-run/node";
import { z } from "zod";
import { addToCart, countCartLines } from "~/models/cart.server";
import { getPart } from "~/models/part.server";
import type { UserView } from "~/models/user.server";
import { MAX_LINE_QUANTITY } from "~/domain/order-lines";
import { formatQuantity } from "~/format";
import { can } from "./companies.server";
import { cookiesAreSecure, getEnv, siteCookieName } from "./env.server";
import { clearSessionHeaders } from "./session-cookie.server";
import { safeRedirect } from "~/domain/safe-redirect";
import { CART_PATH } from "~/forms/cart-forms";
import { QUICK_ORDER_PATH } from "~/forms/quick-order";
import { redirectWithError, redirectWithSuccess } from "./toast.server";

const INTENT_MINUTES = 30;
/** The pad's text kept for the sign-in: a cookie holds about 4 KB, signed and encoded. */
export const MAX_KEPT_PAD_CHARACTERS = 2000;

const env = getEnv();
const intentCookie = createCookie(siteCookieName("intent", "__intent"), {
  httpOnly: true,
  sameSite: "lax",
  // The whole site: with JavaScript, sign-in forms post to `/login.data`, and Google returns to /auth/google/callback.
  path: "/",
  secure: cookiesAreSecure(),
  secrets: [env.SESSION_SECRET],
  maxAge: INTENT_MINUTES * 60,
});

const intentSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("cart"),
    partId: z.string().regex(/^[a-f0-9]{24}$/i),
    quantity: z.number().int().positive().max(MAX_LINE_QUANTITY),
    back: z.string().max(2048),
  }),
  z.object({ kind: z.literal("pad"), lines: z.string().max(MAX_KEPT_PAD_CHARACTERS) }),
]);
export type SignInIntent = z.infer<typeof intentSchema>;

/** The sign-in page for a visitor whose work waits in the cookie; `back` is where it returns. */
export async function signInToContinue(request: Request, intent: SignInIntent | null, back: string) {
  const headers = new Headers(await clearSessionHeaders(request));
  if (intent) headers.append("Set-Cookie", await intentCookie.serialize(intent));
  throw redirect(`/login?${new URLSearchParams({ redirectTo: safeRedirect(back) })}`, { headers });
}

/** A part and a quantity from an Add to cart or Buy form, when both are well formed. */
export function cartIntentFrom(formData: FormData, back: string, partId = formData.get("partId")): SignInIntent | null {
  const parsed = intentSchema.safeParse({
    kind: "cart",
    partId,
    quantity: Number(String(formData.get("quantity") ?? "").trim() || NaN),
    back: safeRedirect(back),
  });
  return parsed.success ? parsed.data : null;
}

async function readIntent(request: Request): Promise<SignInIntent | null> {
  const header = request.headers.get("Cookie");
  if (!header?.includes(`${intentCookie.name}=`)) return null;
  try {
    const parsed = intentSchema.safeParse(await intentCookie.parse(header));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The pad's lines kept through the sign-in, read once by Quick Order (null when none). */
export async function takeKeptPad(request: Request) {
  const intent = await readIntent(request);
  if (intent?.kind !== "pad") return { lines: null, setCookie: null };
  return { lines: intent.lines, setCookie: await intentCookie.serialize("", { maxAge: 0 }) };
}

/** Where a signed-in person starts when nothing named a page: admins on Shop Today, customers on their cart or orders. */
export async function landingFor(user: UserView) {
  if (user.role === "admin") return "/dashboard/admin";
  if (can(user, "order") && (await countCartLines(user.id)) > 0) return CART_PATH;
  return "/dashboard/orders";
}

export type FinishedSignIn = {
  to: string;
  setCookies: string[];
  toast: { kind: "success" | "error"; message: string } | null;
};

/**
 * Right after a sign-in or sign-up: the waiting Add to cart goes into the cart (and the page it came
 * from is where the user goes), or the pad's lines wait for Quick Order. `requested` is the page the
 * sign-in was asked to return to ("" for none).
 */
export async function finishSignIn(request: Request, user: UserView, requested: string): Promise<FinishedSignIn> {
  const intent = await readIntent(request);
  const fallback = requested || (await landingFor(user));
  if (!intent) return { to: fallback, setCookies: [], toast: null };
  const clear = await intentCookie.serialize("", { maxAge: 0 });
  if (user.role === "admin" || !can(user, "order")) {
    const message =
      user.role === "admin"
        ? "Orders are placed from customer accounts, not by admins: nothing was added to a cart."
        : "Your role in your company does not order: ask a buyer or an owner to order it.";
    return { to: fallback, setCookies: [clear], toast: { kind: "error", message } };
  }
  if (intent.kind === "pad") {
    // Offered back, not ordered: the pad is filled again and the buyer checks it.
    return {
      to: QUICK_ORDER_PATH,
      setCookies: [await intentCookie.serialize(intent)],
      toast: { kind: "success", message: "Your quick-order lines are back on the pad: check them and carry on." },
    };
  }
  const to = safeRedirect(intent.back, "") || requested || "/parts";
  const added = await addToCart(user.id, intent.partId, intent.quantity, user.pricing.currency);
  if (!added.ok) {
    return {
      to,
      setCookies: [clear],
      toast: { kind: "error", message: `We could not add that part to your cart: ${added.error}` },
    };
  }
  const partNumber = (await getPart(intent.partId))?.partNumber;
  const what = partNumber ? `${partNumber} ${added.result}` : added.result;
  return {
    to,
    setCookies: [clear],
    toast: { kind: "success", message: `${formatQuantity(intent.quantity)} × ${what} added to your cart` },
  };
}

/** The redirect that ends a sign-in, with what became of the waiting intent as its toast. */
export function redirectAfterSignIn({ to, toast }: FinishedSignIn, headers: Headers) {
  if (!toast) return redirect(to, { headers });
  return toast.kind === "success"
    ? redirectWithSuccess(to, toast.message, { headers })
    : redirectWithError(to, toast.message, { headers });
}
