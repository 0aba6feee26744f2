import { Links, Meta, Outlet } from "@remix-run/react";

/** A document like the shop's HTML-only pages (no framework script): head, one outlet. */
export default function Root() {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        <Outlet />
      </body>
    </html>
  );
}
