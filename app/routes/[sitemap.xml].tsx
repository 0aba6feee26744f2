import { getEnv } from "~/utils/env.server";

/** The public pages. Part details, the dashboard and the sign-in pages are not for search engines. */
const SITEMAP_PATHS = ["/", "/parts", "/blogs", "/portfolio"];

export async function loader() {
  const origin = getEnv().PUBLIC_URL.replace(/\/+$/, "");
  const urls = SITEMAP_PATHS.map((path) => `  <url>\n    <loc>${origin}${path}</loc>\n  </url>`).join("\n");
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return new Response(xml, {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
