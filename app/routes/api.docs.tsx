import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { getEnv } from "~/services/env.server";
import { openApiDocument } from "~/services/openapi.server";

type Parameter = { name: string; in: string; required?: boolean; description?: string; schema?: { type?: string } };
type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> };
  responses?: Record<string, { description?: string }>;
};

/** The API reference, rendered by the shop from its own OpenAPI document (no script, no CDN). */
export function loader(_args: LoaderFunctionArgs) {
  const document = openApiDocument(getEnv().PUBLIC_URL);
  const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    (["get", "post", "patch", "put", "delete"] as const).flatMap((method) => {
      const op = (item as Record<string, Operation | undefined>)[method];
      if (!op) return [];
      const body = op.requestBody?.content?.["application/json"]?.schema?.$ref?.split("/").pop() ?? null;
      return [
        {
          id: op.operationId ?? `${method}-${path}`,
          method: method.toUpperCase(),
          path: `/api/v1${path}`,
          summary: op.summary ?? "",
          description: op.description ?? "",
          parameters: (op.parameters ?? []).map((p) => ({
            name: p.name,
            in: p.in,
            required: Boolean(p.required),
            type: p.schema?.type ?? "string",
            description: p.description ?? "",
          })),
          body,
          responses: Object.entries(op.responses ?? {}).map(([status, r]) => ({
            status,
            description: r.description ?? "",
          })),
        },
      ];
    }),
  );
  return data(
    {
      title: document.info.title,
      description: document.info.description ?? "",
      server: document.servers?.[0]?.url ?? "",
      operations,
    },
    { headers: { "Cache-Control": "public, max-age=300" } },
  );
}

export const headers: HeadersFunction = ({ loaderHeaders }) => ({
  "Cache-Control": loaderHeaders.get("Cache-Control") ?? "",
});

export default function ApiDocs() {
  const { title, description, server, operations } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <h1 className="text-3xl font-bold text-slate-900">{title}</h1>
      <p className="mt-2 text-slate-700">{description}</p>
      <p className="mt-2 text-slate-700">
        Send a key from{" "}
        <Link to="/dashboard/apiKeys" className="font-medium text-brand-700 underline">
          API keys
        </Link>{" "}
        as <code className="rounded bg-slate-100 px-1">Authorization: Bearer pw_live_…</code>. The machine-readable
        description is{" "}
        <a href="/api/v1/openapi.json" className="font-medium text-brand-700 underline">
          openapi.json
        </a>{" "}
        (OpenAPI 3.1); the base address is <code className="break-all rounded bg-slate-100 px-1">{server}</code>.
      </p>
      <nav aria-label="Operations" className="mt-6">
        <ul className="grid gap-1 sm:grid-cols-2">
          {operations.map((op) => (
            <li key={op.id}>
              <a href={`#${op.id}`} className="text-brand-700 underline">
                <span className="font-mono text-sm">{op.method}</span> {op.path}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {operations.map((op) => (
        <section key={op.id} id={op.id} aria-labelledby={`${op.id}-h`} className="mt-8 border-t border-slate-200 pt-6">
          <h2 id={`${op.id}-h`} className="break-all font-mono text-lg font-semibold text-slate-900">
            {`${op.method} ${op.path}`}
          </h2>
          <p className="mt-1 text-slate-800">{op.summary}</p>
          {op.description ? <p className="mt-1 text-sm text-slate-700">{op.description}</p> : null}
          {op.parameters.length ? (
            <>
              <h3 className="mt-3 font-semibold text-slate-900">Parameters</h3>
              <ul className="mt-1 list-disc pl-6 text-sm text-slate-800">
                {op.parameters.map((p) => (
                  <li key={`${p.in}-${p.name}`}>
                    <code>{p.name}</code> ({p.in}, {p.type}
                    {p.required ? ", required" : ""}){p.description ? `: ${p.description}` : ""}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {op.body ? (
            <p className="mt-2 text-sm text-slate-800">
              Body: <code>{op.body}</code> (JSON; see openapi.json for its fields)
            </p>
          ) : null}
          <h3 className="mt-3 font-semibold text-slate-900">Answers</h3>
          <ul className="mt-1 list-disc pl-6 text-sm text-slate-800">
            {op.responses.map((r) => (
              <li key={r.status}>
                <code>{r.status}</code> {r.description}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "API reference — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
