import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { NavLink, Outlet, useLoaderData, useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { VerifyEmailBanner } from "~/components/verify-email-banner";
import type { Role } from "~/models/user.server";
import { requireUser, requireUserOrSignOutHome } from "~/services/guards.server";
import { can, headerRoleLabel } from "~/services/companies.server";

const DEFAULT_AVATAR = "/images/default-avatar.svg";

/** The drawer's items: My Profile for everyone, then the screens of the user's role (spec 2). */
const items: { to: string; label: string; roles: Role[]; ordering?: true }[] = [
  { to: "/dashboard", label: "My Profile", roles: ["customer", "admin"] },
  { to: "/dashboard/orders", label: "My Orders", roles: ["customer"] },
  { to: "/dashboard/cart", label: "My Cart", roles: ["customer"], ordering: true },
  { to: "/dashboard/quick-order", label: "Quick Order", roles: ["customer"], ordering: true },
  { to: "/dashboard/lists", label: "Saved Lists", roles: ["customer"] },
  { to: "/dashboard/quotes", label: "My Quotes", roles: ["customer"] },
  { to: "/dashboard/review", label: "Add A Review", roles: ["customer"] },
  { to: "/dashboard/company", label: "Company", roles: ["customer"] },
  { to: "/dashboard/admin", label: "Shop Today", roles: ["admin"] },
  { to: "/dashboard/allUsers", label: "All Users", roles: ["admin"] },
  { to: "/dashboard/companies", label: "Companies", roles: ["admin"] },
  { to: "/dashboard/addProduct", label: "Add Product", roles: ["admin"] },
  { to: "/dashboard/manageProducts", label: "Manage Products", roles: ["admin"] },
  { to: "/dashboard/manageOrders", label: "Manage Orders", roles: ["admin"] },
  { to: "/dashboard/manageQuotes", label: "Quotes", roles: ["admin"] },
  { to: "/dashboard/priceGroups", label: "Price Groups", roles: ["admin"] },
  { to: "/dashboard/exchangeRates", label: "Exchange Rates", roles: ["admin"] },
  { to: "/dashboard/reviews", label: "Reviews", roles: ["admin"] },
  { to: "/dashboard/audit", label: "Audit Log", roles: ["admin"] },
  { to: "/dashboard/apiKeys", label: "API keys", roles: ["customer", "admin"] },
  { to: "/dashboard/sessions", label: "Your sessions", roles: ["customer", "admin"] },
  { to: "/dashboard/webhooks", label: "Webhooks", roles: ["customer", "admin"] },
];

export async function loader({ request }: LoaderFunctionArgs) {
  // Loaders run in parallel and the first redirect wins, so the layout applies My Orders' own rule
  // too: there an expired or revoked session signs out and goes home (spec 4).
  const onMyOrders = /^\/dashboard\/orders(\/|$)/.test(new URL(request.url).pathname);
  const user = onMyOrders ? await requireUserOrSignOutHome(request) : await requireUser(request);
  return {
    user: {
      name: user.name,
      role: user.role,
      roleLabel: await headerRoleLabel(user),
      mayOrder: can(user, "order"),
      photoUrl: user.photoUrl,
      email: user.email,
      emailVerified: user.emailVerified,
    },
  };
}

export default function DashboardLayout() {
  const { user } = useLoaderData<typeof loader>();
  const drawer = useRef<HTMLInputElement>(null);
  const location = useLocation();

  // With JavaScript, following a link closes the drawer on small screens.
  useEffect(() => {
    if (drawer.current) drawer.current.checked = false;
  }, [location.pathname]);

  const itemClass = ({ isActive }: { isActive: boolean }) =>
    `flex min-h-11 items-center rounded px-3 py-2 text-sm font-medium ${
      isActive ? "bg-brand-700 text-white" : "text-slate-800 hover:bg-slate-200"
    }`;

  return (
    <div className="mx-auto max-w-7xl px-4 py-6 lg:flex lg:gap-8">
      {/*
        The drawer is a CSS-only toggle: a checkbox opens the menu on small screens, without
        JavaScript. On large screens the menu is a sidebar that is always shown.
      */}
      <input
        ref={drawer}
        type="checkbox"
        id="dashboard-drawer"
        className="peer sr-only lg:hidden"
        aria-controls="dashboard-menu"
      />
      <label
        htmlFor="dashboard-drawer"
        className="mb-4 inline-flex min-h-11 cursor-pointer items-center gap-2 rounded border border-slate-400 bg-white px-3 py-2 text-sm font-medium text-slate-800 peer-focus-visible:ring-2 peer-focus-visible:ring-brand-700 lg:hidden"
      >
        <svg aria-hidden="true" width="16" height="16" viewBox="0 0 16 16" fill="currentColor">
          <rect y="2" width="16" height="2" rx="1" />
          <rect y="7" width="16" height="2" rx="1" />
          <rect y="12" width="16" height="2" rx="1" />
        </svg>
        Dashboard menu
      </label>
      <aside
        id="dashboard-menu"
        className="mb-6 hidden shrink-0 rounded-lg border border-slate-200 bg-slate-50 p-4 peer-checked:block lg:mb-0 lg:block lg:w-60"
      >
        <div className="mb-4 flex items-center gap-3">
          <img
            src={user.photoUrl ?? DEFAULT_AVATAR}
            alt=""
            width={40}
            height={40}
            referrerPolicy="no-referrer"
            className="h-10 w-10 rounded-full border border-slate-300 bg-white object-cover"
          />
          <div className="min-w-0">
            <p className="truncate text-sm font-semibold text-slate-900">{user.name}</p>
            {user.roleLabel ? (
              <p className="text-xs text-slate-600" data-testid="sidebar-role">
                {user.roleLabel}
              </p>
            ) : null}
          </div>
        </div>
        <nav aria-label="Dashboard">
          <ul className="space-y-1">
            {items
              .filter((item) => item.roles.includes(user.role) && (!item.ordering || user.mayOrder))
              .map((item) => (
                <li key={item.to}>
                  <NavLink to={item.to} end={item.to === "/dashboard"} className={itemClass}>
                    {item.label}
                  </NavLink>
                </li>
              ))}
          </ul>
        </nav>
      </aside>
      <div className="min-w-0 flex-1">
        {user.emailVerified ? null : <VerifyEmailBanner email={user.email} />}
        <Outlet />
      </div>
    </div>
  );
}

/** Account pages are personal: never stored by the browser or a shared cache. */
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });

export const meta: MetaFunction = () => [{ title: "Dashboard — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
