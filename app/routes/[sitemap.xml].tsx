import { countSitemapPartFiles } from "~/models/part-catalogue.server";
import { getEnv } from "~/services/env.server";

/**
 * A sitemap index: the public pages in one file, every part in files of 10,000
 * (app/routes/sitemaps.$file.tsx), so the catalogue can grow past the protocol's 50,000 URLs a file.
 */
export async function loader() {
  const origin = getEnv().PUBLIC_URL.replace(/\/+$/, "");
  const files = ["pages", ...Array.from({ length: await countSitemapPartFiles() }, (_, index) => `parts-${index + 1}`)];
  const entries = files
    .map((file) => `  <sitemap>\n    <loc>${origin}/sitemaps/${file}</loc>\n  </sitemap>`)
    .join("\n");
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries}\n</sitemapindex>\n`;
  return new Response(xml, {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
