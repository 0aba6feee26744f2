import type { MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { ErrorPage, errorTitle, GeneralErrorBoundary } from "~/components/error-boundary";

/** Unknown paths: a 404 with the error image. */
export async function loader() {
  throw new Response("Not found", { status: 404 });
}

export default function NotFound() {
  return <ErrorPage status={404} title="We could not find that page" />;
}

// While the database is away every loader answers 503, this one too (server/db-outage.ts): that page says so.
export const meta: MetaFunction = ({ error }) => [
  { title: `${isNotFound(error) ? "Page not found" : errorTitle(error)} — PartsWorks` },
];

export function ErrorBoundary() {
  if (!isNotFound(useRouteError())) return <GeneralErrorBoundary />;
  return (
    <ErrorPage
      status={404}
      title="We could not find that page"
      detail="The part or page may have been removed, or the address has a typo."
    />
  );
}

const isNotFound = (error: unknown) => isRouteErrorResponse(error) && error.status === 404;
