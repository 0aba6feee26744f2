import { createCookie } from "@remix-run/node";
import { HOME_CURRENCY, isCurrency, type Currency } from "~/domain/money";
import { getEnv } from "./env.server";

const env = getEnv();

/**
 * The currency a visitor chose to see prices in, kept for a year in a cookie of its own (a visitor
 * has no company to name one). A page that reads it is private (cache.server.ts), so a shared cache
 * never hands euro prices to a browser that asked for none. A customer's currency is their company's.
 */
export const CURRENCY_COOKIE_NAME = "__currency";

const currencyCookie = createCookie(CURRENCY_COOKIE_NAME, {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  maxAge: 365 * 24 * 60 * 60,
  secure: env.NODE_ENV === "production" && env.PUBLIC_URL.startsWith("https:"),
});

/** The visitor's chosen currency, or the home currency (none chosen, or a value the shop does not keep). */
export async function displayCurrency(request: Request): Promise<Currency> {
  const header = request.headers.get("Cookie");
  if (!header?.includes(`${CURRENCY_COOKIE_NAME}=`)) return HOME_CURRENCY;
  const value: unknown = await currencyCookie.parse(header).catch(() => null);
  return isCurrency(value) ? value : HOME_CURRENCY;
}

/** The currency prices are shown in: a customer's company currency, else the visitor's choice. */
export async function shownCurrency(
  request: Request,
  user: { role: string; pricing: { currency: Currency } } | null,
): Promise<Currency> {
  if (user?.role === "customer") return user.pricing.currency;
  return displayCurrency(request);
}

export function rememberCurrency(currency: Currency) {
  return currencyCookie.serialize(currency);
}
