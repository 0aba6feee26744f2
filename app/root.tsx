import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { can, headerRoleLabel } from "~/services/companies.server";
import { data as dataWithInit } from "@remix-run/node";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useMatches,
  useRouteLoaderData,
} from "@remix-run/react";
import type { ReactNode } from "react";
import { errorTitle, GeneralErrorBoundary } from "~/components/error-boundary";
import { Footer, Navbar } from "~/components/layout";
import { FocusAfterSubmit } from "~/components/focus-after-submit";
import { FirstErrorScope } from "~/components/forms";
import { TOAST_DURATION_MS, Toaster } from "~/components/toaster";
import { countCartLines } from "~/models/cart.server";
import { getUser } from "~/services/guards.server";
import { shownCurrency } from "~/services/display-currency.server";
import { InCurrency } from "~/components/money";
import { getPublicEnv } from "~/services/env.server";
import { browserAsset } from "~/services/browser-assets.server";
import { getToast, hasToastCookie } from "~/services/toast.server";
import { usePageHydrates } from "~/hooks/hydrated";
import { useNonce } from "~/hooks/nonce";
import stylesheet from "~/styles/tailwind.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "icon", href: "/favicon.ico", sizes: "32x32" },
];

export async function loader({ request }: LoaderFunctionArgs) {
  // A request without a toast cookie has no toast: no cookie to parse, verify and re-sign.
  const [user, { toast, headers }] = await Promise.all([
    getUser(request),
    hasToastCookie(request) ? getToast(request) : { toast: undefined, headers: undefined },
  ]);
  // The header's Cart says how many lines it holds (customers only: admins have no cart).
  const [cartLines, roleLabel, currency] = await Promise.all([
    user && can(user, "order") ? countCartLines(user.id) : 0,
    user ? headerRoleLabel(user) : null,
    shownCurrency(request, user),
  ]);
  const data = {
    user: user
      ? {
          id: user.id,
          name: user.name,
          role: user.role,
          roleLabel,
          mayOrder: can(user, "order"),
          photoUrl: user.photoUrl,
          cartLines,
        }
      : null,
    toast: toast ?? null,
    // The currency prices are shown in (a customer's company's, else the visitor's choice).
    currency,
    env: getPublicEnv(),
    // Pending buttons and the vehicle picker where the framework is not sent (app/browser/static-page.ts).
    staticPageScript: browserAsset("static-page"),
  };
  // getToast always re-commits its cookie; only send it when a toast was consumed, so pages
  // without one carry no Set-Cookie and public pages stay cacheable (app/services/cache.server.ts).
  return toast ? dataWithInit(data, { headers }) : data;
}

export type RootLoader = typeof loader;

// A page whose error the root's boundary shows (its own loader failed: the database away) says what happened.
export const meta: MetaFunction = ({ error }) => [
  { title: error ? `${errorTitle(error)} — PartsWorks` : "PartsWorks — car parts direct from the manufacturer" },
  {
    name: "description",
    content: "Order car parts in bulk direct from the manufacturer, pay by card, pick up in 30 minutes.",
  },
];

/**
 * A route whose `handle` has `hydrate: false` (or a function of the matches that answers false)
 * is sent as HTML only, without the framework's JavaScript (about 85 KB gzipped); usePageHydrates
 * decides. The home page does this: static content plus reviews streamed by the server, so it
 * gives up only client-side navigation, and its toast closes with the few lines of script below.
 */
const useHydrate = usePageHydrates;

/** Closes the toast of a page sent without the framework (what Toaster does once hydrated). */
function staticToastScript(duration: number) {
  return `(function(){var t=document.querySelector('[data-testid="toast"]');if(!t)return;var c=function(){t.remove()};var b=t.querySelector("button");if(b)b.addEventListener("click",c);setTimeout(c,${duration})})()`;
}

/** CSS of its own that a route puts in the head (`handle.headStyle`): the printable documents. */
function useHeadStyles() {
  return useMatches().flatMap((match) => {
    const style = (match.handle as { headStyle?: unknown } | undefined)?.headStyle;
    return typeof style === "string" ? [style] : [];
  });
}

function Document({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const hydrate = useHydrate();
  const headStyles = useHeadStyles();
  return (
    <html lang="en" className="h-full">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1e3a8a" />
        <Meta />
        <Links />
        {headStyles.map((css, i) => (
          <style key={i} dangerouslySetInnerHTML={{ __html: css }} />
        ))}
      </head>
      <body className="flex min-h-full flex-col">
        {children}
        {hydrate ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  );
}

export function useOptionalUser() {
  return useRouteLoaderData<RootLoader>("root")?.user ?? null;
}

export default function App() {
  const { user, toast, currency, env, staticPageScript } = useLoaderData<typeof loader>();
  const nonce = useNonce();
  const hydrate = useHydrate();
  return (
    <Document>
      <Navbar user={user} />
      <Toaster toast={toast} />
      <FocusAfterSubmit />
      <main id="main" className="flex-1 aria-busy:opacity-60">
        <FirstErrorScope>
          <InCurrency currency={currency}>
            <Outlet />
          </InCurrency>
        </FirstErrorScope>
      </main>
      <Footer currency={currency} customer={user?.role === "customer"} />
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: `window.ENV = ${JSON.stringify(env)}` }} />
      {hydrate || !staticPageScript ? null : <script nonce={nonce} src={staticPageScript} defer />}
      {toast && !hydrate ? (
        <script
          nonce={nonce}
          dangerouslySetInnerHTML={{ __html: staticToastScript(toast.duration ?? TOAST_DURATION_MS) }}
        />
      ) : null}
    </Document>
  );
}

export function ErrorBoundary() {
  return (
    <Document>
      <Navbar user={null} />
      <main id="main" className="flex-1">
        <GeneralErrorBoundary />
      </main>
      <Footer />
    </Document>
  );
}
