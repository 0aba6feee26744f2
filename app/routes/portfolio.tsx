import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data as dataWithInit } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { getPortfolio } from "~/content/content.server";
import { publicPageHeaders, publicPageHeadersFunction } from "~/services/cache.server";

/** The developer's portfolio, from app/content/portfolio.json. */
export async function loader({ request }: LoaderFunctionArgs) {
  return dataWithInit({ portfolio: getPortfolio() }, { headers: publicPageHeaders(request) });
}

export const headers = publicPageHeadersFunction;

/** Static content: sent without the framework's JavaScript (see useHydrate in root.tsx). */
export const handle = { hydrate: false };

const linkClass = "text-brand-700 underline hover:text-brand-900";
/** The links under each project: boxes in a row, as tall as a thumb needs. */
const projectLinkClass = `inline-flex min-h-11 items-center ${linkClass}`;

export default function PortfolioPage() {
  const { portfolio } = useLoaderData<typeof loader>();
  const { contact } = portfolio;
  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <header className="border-b border-slate-200 pb-6">
        <h1 className="text-4xl font-bold tracking-tight text-slate-900">{portfolio.name}</h1>
        <p className="mt-1 text-xl text-brand-800">{portfolio.role}</p>
        <p className="mt-4 text-slate-700">{portfolio.summary}</p>
      </header>

      <div className="mt-8 grid gap-10 md:grid-cols-[1fr_2fr]">
        <section aria-labelledby="contact-heading">
          <h2 id="contact-heading" className="text-2xl font-semibold">
            Contact
          </h2>
          <dl className="mt-4 space-y-3">
            <div>
              <dt className="text-sm text-slate-600">Email</dt>
              <dd>
                <a href={`mailto:${contact.email}`} className={linkClass}>
                  {contact.email}
                </a>
              </dd>
            </div>
            <div>
              <dt className="text-sm text-slate-600">Phone</dt>
              <dd>
                <a href={`tel:${contact.phone.replace(/[^\d+]/g, "")}`} className={linkClass}>
                  {contact.phone}
                </a>
              </dd>
            </div>
            <div>
              <dt className="text-sm text-slate-600">Location</dt>
              <dd>{contact.location}</dd>
            </div>
            {contact.links.map((link) => (
              <div key={link.url}>
                <dt className="text-sm text-slate-600">{link.label}</dt>
                <dd>
                  <a href={link.url} className={linkClass} rel="noopener noreferrer">
                    {link.url.replace(/^https?:\/\/(www\.)?/, "")}
                  </a>
                </dd>
              </div>
            ))}
          </dl>

          <h2 id="skills-heading" className="mt-10 text-2xl font-semibold">
            Skills
          </h2>
          <ul aria-labelledby="skills-heading" className="mt-4 flex flex-wrap gap-2">
            {portfolio.skills.map((skill) => (
              <li key={skill} className="rounded-full bg-brand-50 px-3 py-1 text-sm font-medium text-brand-900">
                {skill}
              </li>
            ))}
          </ul>
        </section>

        <div className="space-y-10">
          <section aria-labelledby="education-heading">
            <h2 id="education-heading" className="text-2xl font-semibold">
              Education
            </h2>
            <ul className="mt-4 space-y-4">
              {portfolio.education.map((item) => (
                <li key={item.degree} className="rounded-lg border border-slate-200 p-4">
                  <h3 className="font-semibold text-slate-900">{item.degree}</h3>
                  <p className="text-slate-700">
                    {item.school} · {item.years}
                  </p>
                  {item.details ? <p className="mt-1 text-sm text-slate-600">{item.details}</p> : null}
                </li>
              ))}
            </ul>
          </section>

          <section aria-labelledby="projects-heading">
            <h2 id="projects-heading" className="text-2xl font-semibold">
              Projects
            </h2>
            <ul className="mt-4 space-y-4">
              {portfolio.projects.map((project) => (
                <li key={project.name} className="rounded-lg border border-slate-200 p-4">
                  <h3 className="font-semibold text-slate-900">{project.name}</h3>
                  <p className="mt-1 text-slate-700">{project.description}</p>
                  <p className="mt-2 flex flex-wrap gap-4 text-sm">
                    <a href={project.url} className={projectLinkClass} rel="noopener noreferrer">
                      Visit {project.name}
                    </a>
                    {project.source ? (
                      <a href={project.source} className={projectLinkClass} rel="noopener noreferrer">
                        Source code of {project.name}
                      </a>
                    ) : null}
                  </p>
                </li>
              ))}
            </ul>
          </section>
        </div>
      </div>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.portfolio.name ?? "Portfolio"} — Portfolio — PartsWorks` },
  {
    name: "description",
    content: data
      ? `${data.portfolio.name}, ${data.portfolio.role}: contact details, education, skills and projects.`
      : "Portfolio: contact details, education, skills and projects.",
  },
];
