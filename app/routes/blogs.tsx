import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { getBlogItems } from "~/content/content.server";
import { publicPageHeaders, publicPageHeadersFunction } from "~/services/cache.server";

/** The questions and answers of public/blogs.json (also served as-is at /blogs.json). */
export async function loader({ request }: LoaderFunctionArgs) {
  return data({ items: getBlogItems() }, { headers: publicPageHeaders(request) });
}

export const headers = publicPageHeadersFunction;

/** Static content: sent without the framework's JavaScript (see useHydrate in root.tsx). */
export const handle = { hydrate: false };

export default function Blogs() {
  const { items } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-center text-3xl font-bold tracking-tight text-slate-900">Some Question Answers...</h1>
      <p className="mt-2 text-center text-slate-700">Select a question to read the answer.</p>
      {items.length ? (
        <ul className="mt-8 space-y-3">
          {items.map((item) => (
            <li key={item.id}>
              {/* <details> opens and closes natively: no JavaScript needed. */}
              <details className="group rounded-lg border border-slate-200 bg-white shadow-sm open:border-brand-600">
                <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded-lg px-5 py-4 text-lg font-semibold text-slate-900 hover:bg-slate-50 [&::-webkit-details-marker]:hidden">
                  <span>{item.Question}</span>
                  <svg
                    aria-hidden="true"
                    viewBox="0 0 20 20"
                    width="20"
                    height="20"
                    fill="currentColor"
                    className="shrink-0 transition-transform group-open:rotate-180 motion-reduce:transition-none"
                  >
                    <path d="M5.3 7.3a1 1 0 011.4 0L10 10.6l3.3-3.3a1 1 0 111.4 1.4l-4 4a1 1 0 01-1.4 0l-4-4a1 1 0 010-1.4z" />
                  </svg>
                </summary>
                <div className="border-t border-slate-200 px-5 py-4 text-slate-700">
                  <p>{item.Ans}</p>
                </div>
              </details>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-8 text-center text-slate-700">No questions yet.</p>
      )}
    </div>
  );
}

export const meta: MetaFunction = () => [
  { title: "Questions and answers — PartsWorks" },
  {
    name: "description",
    content:
      "Answers to common questions about ordering car parts in bulk from PartsWorks, payments, pick-up in store and how the shop is built.",
  },
];
