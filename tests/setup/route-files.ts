/** The route modules of app/routes as the tests see them: each module's file and its URL. */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

const routesDir = path.resolve(import.meta.dirname, "../../app/routes");

/**
 * The URL of a Remix v2 flat-routes module name, with each parameter as `{}` (`{id}` with `named`)
 * and a splat as `*`.
 */
export function routeUrl(name: string, { named = false } = {}): string {
  const segments: string[] = [];
  // Dots inside [ ] are escaped: `[sitemap.xml]`, `api.v1.openapi[.json]`.
  for (const raw of name.match(/(?:\[[^\]]*\]|[^.])+/g) ?? []) {
    if (raw === "_index" || (raw.startsWith("_") && !raw.startsWith("_["))) continue; // index or pathless layout
    const segment = raw.endsWith("_") ? raw.slice(0, -1) : raw; // a trailing _ only leaves the parent layout
    if (segment === "$") segments.push("*");
    else if (segment.startsWith("$")) segments.push(named ? `{${segment.slice(1)}}` : "{}");
    else segments.push(segment.replace(/\[([^\]]*)\]/g, "$1"));
  }
  return `/${segments.join("/")}`;
}

/** Every route module in app/routes (a file, or a folder with route.tsx): its URL and its source file. */
export function routeModules(): { url: string; entry: string; file: string }[] {
  return readdirSync(routesDir)
    .filter((entry) => !entry.startsWith(".") && !/\.test\.tsx?$/.test(entry))
    .map((entry) => {
      const isFolder = statSync(path.join(routesDir, entry)).isDirectory();
      const name = isFolder ? entry : entry.replace(/\.(tsx?|jsx?)$/, "");
      return {
        url: routeUrl(name, { named: true }),
        entry,
        file: path.join(routesDir, entry, isFolder ? "route.tsx" : ""),
      };
    });
}
