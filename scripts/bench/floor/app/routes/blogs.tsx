import { useLoaderData } from "@remix-run/react";
import { items } from "../blogs.server";

/** The shop's /blogs content (the same questions in <details>), without its layout and middleware. */
export function loader() {
  return { items };
}

export default function Blogs() {
  const { items } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-center text-3xl font-bold">Some Question Answers...</h1>
      <ul className="mt-8 space-y-3">
        {items.map((item) => (
          <li key={item.id}>
            <details className="group rounded-lg border border-slate-200 bg-white shadow-sm">
              <summary className="flex cursor-pointer list-none items-center justify-between gap-4 px-5 py-4">
                <span>{item.Question}</span>
              </summary>
              <div className="border-t border-slate-200 px-5 py-4 text-slate-700">
                <p>{item.Ans}</p>
              </div>
            </details>
          </li>
        ))}
      </ul>
    </div>
  );
}
