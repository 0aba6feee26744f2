import type { MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { getNewestParts } from "~/models/part.server";
import { formatCents } from "~/utils/misc";

export async function loader() {
  return json({ parts: await getNewestParts(6) });
}

export default function Home() {
  const { parts } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <h1 className="text-3xl font-bold">Buy car parts online, pick them up in store in 30 minutes</h1>
      <ul className="mt-6 grid gap-4 lg:grid-cols-3">
        {parts.map((part) => (
          <li key={part.id} className="rounded border p-4">
            <h2 className="font-semibold">{part.name}</h2>
            <p>{formatCents(part.priceCents)} per unit</p>
            <Link to={`/parts/${part.id}`}>Purchase</Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "PartsWorks — car parts direct from the manufacturer" }];
