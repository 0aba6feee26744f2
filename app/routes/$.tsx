import type { MetaFunction } from "@remix-run/node";
import { ErrorPage } from "~/components/error-boundary";

/** Unknown paths: a 404 with the error image. */
export async function loader() {
  throw new Response("Not found", { status: 404 });
}

export default function NotFound() {
  return <ErrorPage status={404} title="We could not find that page" />;
}

export const meta: MetaFunction = () => [{ title: "Page not found — PartsWorks" }];

export function ErrorBoundary() {
  return (
    <ErrorPage
      status={404}
      title="We could not find that page"
      detail="The part or page may have been removed, or the address has a typo."
    />
  );
}
