import type { LoaderFunctionArgs } from "@remix-run/node";
import { listSitemapParts } from "~/models/part-catalogue.server";
import { getEnv } from "~/services/env.server";

/** The public pages. The dashboard and the sign-in pages are not for search engines. */
const SITEMAP_PATHS = ["/", "/parts", "/blogs", "/portfolio"];

/** One file of the sitemap index (/sitemap.xml): `pages`, or `parts-N`, the Nth 10,000 parts. */
export async function loader({ params }: LoaderFunctionArgs) {
  const origin = getEnv().PUBLIC_URL.replace(/\/+$/, "");
  const file = params.file ?? "";
  const partsFile = /^parts-([1-9]\d{0,4})$/.exec(file);
  let urls: { loc: string; lastmod?: string | null }[];
  if (file === "pages") {
    urls = SITEMAP_PATHS.map((path) => ({ loc: `${origin}${path}` }));
  } else if (partsFile) {
    const parts = await listSitemapParts(Number(partsFile[1]));
    if (parts.length === 0) throw new Response("No such sitemap", { status: 404 });
    urls = parts.map((part) => ({ loc: `${origin}/parts/${part.id}`, lastmod: part.updatedAt }));
  } else {
    throw new Response("No such sitemap", { status: 404 });
  }
  const body = urls
    .map(
      ({ loc, lastmod }) =>
        `  <url>\n    <loc>${loc}</loc>${lastmod ? `\n    <lastmod>${lastmod}</lastmod>` : ""}\n  </url>`,
    )
    .join("\n");
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>\n`;
  return new Response(xml, {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
