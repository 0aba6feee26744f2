import { getEnv } from "~/services/env.server";

export async function loader() {
  const origin = getEnv().PUBLIC_URL.replace(/\/+$/, "");
  const body = [
    "User-agent: *",
    "Allow: /",
    // Account pages, sign-in-only part details and the sign-in flow itself.
    "Disallow: /dashboard",
    "Disallow: /parts/",
    "Disallow: /login",
    "Disallow: /signup",
    "Disallow: /auth/",
    "",
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
