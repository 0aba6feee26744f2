/** Admins only (My Profile): which integrations are configured, and the settings still missing. */
export type IntegrationRow = { key: string; name: string; configured: boolean; missing: string[]; withoutIt: string };

export function IntegrationsPanel({ integrations }: { integrations: IntegrationRow[] }) {
  return (
    <section
      aria-labelledby="integrations-heading"
      className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
      data-testid="integrations"
    >
      <h2 id="integrations-heading" className="text-xl font-semibold text-slate-900">
        Integrations
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Only admins see this. Settings are environment variables; restart the shop after changing them.
      </p>
      <ul className="mt-4 divide-y divide-slate-200">
        {integrations.map((item) => (
          <li key={item.key} className="py-3" data-testid={`integration-${item.key}`}>
            <p className="font-medium text-slate-900">
              {item.name}:{" "}
              {item.configured ? (
                <span className="text-green-800">configured</span>
              ) : (
                <span className="text-red-700">not configured</span>
              )}
            </p>
            {item.missing.length ? (
              <p className="mt-1 text-sm text-slate-700">
                Set{" "}
                {item.missing.map((name, index) => (
                  <span key={name}>
                    {index > 0 ? (index === item.missing.length - 1 ? " and " : ", ") : null}
                    <code className="rounded bg-slate-100 px-1">{name}</code>
                  </span>
                ))}{" "}
                (see the README, Configuration).{item.configured ? null : ` Until then ${item.withoutIt}.`}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
