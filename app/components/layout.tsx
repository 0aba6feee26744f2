import { Form, Link, NavLink, useLocation } from "@remix-run/react";
import type { Currency } from "~/domain/money";
import { CurrencyPicker } from "./currency-picker";

type NavUser = { name: string; role: string; roleLabel?: string | null; mayOrder?: boolean; cartLines?: number } | null;

const links = [
  { to: "/", label: "Home" },
  { to: "/parts", label: "Parts" },
  { to: "/blogs", label: "Blogs" },
  { to: "/portfolio", label: "Portfolio" },
];

function NavItems({ user }: { user: NavUser }) {
  const item = ({ isActive }: { isActive: boolean }) =>
    `flex min-h-11 items-center rounded px-3 py-2 text-sm font-medium hover:bg-brand-800 ${isActive ? "bg-brand-800 text-white" : "text-slate-100"}`;
  return (
    <>
      {links.map((link) => (
        <li key={link.to}>
          <NavLink to={link.to} end={link.to === "/"} className={item} prefetch="intent">
            {link.label}
          </NavLink>
        </li>
      ))}
      {user ? (
        <>
          <li>
            <NavLink to="/dashboard" className={item}>
              Dashboard
            </NavLink>
          </li>
          {user.role !== "admin" && user.mayOrder !== false ? (
            <li>
              <NavLink to="/dashboard/cart" className={item} data-testid="nav-cart">
                Cart
                {user.cartLines ? (
                  <span className="ml-1.5 rounded-full bg-white px-2 text-xs font-bold text-brand-900">
                    {user.cartLines}
                    <span className="sr-only"> {user.cartLines === 1 ? "line" : "lines"}</span>
                  </span>
                ) : null}
              </NavLink>
            </li>
          ) : null}
          <li className="px-3 py-2 text-sm text-slate-200">
            <span data-testid="nav-user-name">{user.name}</span>
            {user.roleLabel ? (
              <span className="ml-1.5 rounded bg-brand-800 px-1.5 py-0.5 text-xs" data-testid="nav-user-role">
                {user.roleLabel}
              </span>
            ) : null}
          </li>
          <li>
            <Form method="post" action="/logout">
              <button
                type="submit"
                className="flex min-h-11 w-full items-center rounded px-3 py-2 text-left text-sm font-medium text-slate-100 hover:bg-brand-800"
              >
                Sign Out
              </button>
            </Form>
          </li>
        </>
      ) : (
        <li>
          <NavLink to="/login" className={item}>
            Login
          </NavLink>
        </li>
      )}
    </>
  );
}

export function Navbar({ user }: { user: NavUser }) {
  const location = useLocation();
  return (
    <header className="bg-brand-900 text-white">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-brand-900"
      >
        Skip to content
      </a>
      <nav aria-label="Main" className="mx-auto flex max-w-7xl items-center justify-between px-4 py-3">
        <Link to="/" className="flex min-h-11 items-center text-lg font-bold tracking-tight">
          PartsWorks
        </Link>
        <ul className="hidden items-center gap-1 md:flex">
          <NavItems user={user} />
        </ul>
        {/* The mobile menu is a <details>: it opens and closes without JavaScript. Keyed on the
            path so that it closes after a client-side navigation too. */}
        <details key={location.pathname} className="relative md:hidden">
          <summary className="flex min-h-11 cursor-pointer list-none items-center rounded px-3 py-2 text-sm font-medium hover:bg-brand-800">
            Menu
          </summary>
          <ul className="absolute right-0 z-40 mt-2 w-48 rounded bg-brand-900 p-2 shadow-lg">
            <NavItems user={user} />
          </ul>
        </details>
      </nav>
    </header>
  );
}

export function Footer({ currency, customer }: { currency?: Currency; customer?: boolean }) {
  // The picker's own page shows it in its body.
  const onPickerPage = useLocation().pathname === "/currency";
  return (
    <footer className="border-t border-slate-200 bg-slate-50">
      <div className="mx-auto max-w-7xl space-y-4 px-4 py-6 text-center text-sm text-slate-600">
        {currency && !onPickerPage ? <CurrencyPicker current={currency} customer={Boolean(customer)} /> : null}
        <p>Copyright © {new Date().getFullYear()} PartsWorks Manufacturing. All rights reserved.</p>
      </div>
    </footer>
  );
}
