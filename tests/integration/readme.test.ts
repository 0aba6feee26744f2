/**
 * The reference docs stay true: the route table in docs/pages.md names every route module and only those,
 * the index table in docs/database.md names every index the Mongoose models declare and only those,
 * the README's Scripts table names only scripts package.json has, its Configuration table only
 * settings the shop reads, and the deployment guide every setting. Plain reads of files and schemas:
 * no database, no shop.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import mongoose from "mongoose";
import { describe, expect, test } from "vitest";
import { routeModules, routeUrl } from "../setup/route-files";

const root = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

/** The rows of the first table under a `## heading` of a Markdown file, each as its cells. */
function tableUnder(file: string, heading: string): string[][] {
  const text = read(file);
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`${file} has no "## ${heading}" section`);
  const section = text.slice(start + 1).split(/\n## /)[0]!;
  const lines = section.split("\n");
  const first = lines.findIndex((line) => line.startsWith("|"));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith("|")) break;
    // Cells split on pipes that are not escaped (`make\|model` stays one cell).
    rows.push(
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

/** Every route module by its URL, parameters as `{}`. */
function routeModuleUrls(): Map<string, string> {
  return new Map(routeModules().map(({ url, entry }) => [url.replace(/\{[^}]*\}/g, "{}"), entry]));
}

/** The URLs of the route table (docs/pages.md): every backticked path of a row's first cell, parameters as `{}`. */
function documentedRoutes(): string[] {
  return tableUnder("docs/pages.md", "Pages").flatMap(([cell = ""]) =>
    [...cell.matchAll(/`(\/[^`]*)`/g)].map(([, url]) => url!.replace(/\?.*$/, "").replace(/\{[^}]*\}/g, "{}")),
  );
}

/** Served by the Express server itself (server.ts, server/) or from public/, not by a route module. */
function servedOutsideRoutes(url: string): boolean {
  const sources = [read("server.ts"), ...readdirSync(path.join(root, "server")).map((file) => read(`server/${file}`))];
  if (sources.some((source) => source.includes(`"${url}"`) || source.includes(`\`${url}`))) return true;
  try {
    return statSync(path.join(root, "public", url)).isFile();
  } catch {
    return false;
  }
}

test("the README is reference, under 2,500 words (measurements live in docs/performance.md)", () => {
  const words = readFileSync(path.join(root, "README.md"), "utf8").split(/\s+/).filter(Boolean).length;
  expect(words).toBeLessThan(2500);
});

describe("the route table in docs/pages.md", () => {
  test("reads flat-route names the way Remix v2 does", () => {
    expect(routeUrl("dashboard.orders_.$id._index")).toBe("/dashboard/orders/{}");
    expect(routeUrl("dashboard.payment.$id_.success")).toBe("/dashboard/payment/{}/success");
    expect(routeUrl("_index")).toBe("/");
    expect(routeUrl("$")).toBe("/*");
    expect(routeUrl("[sitemap.xml]")).toBe("/sitemap.xml");
    expect(routeUrl("api.v1.openapi[.json]")).toBe("/api/v1/openapi.json");
    expect(routeUrl("_auth.login")).toBe("/login");
  });

  test("names every route module", () => {
    const documented = new Set(documentedRoutes());
    const missing = [...routeModuleUrls()]
      .filter(([url]) => !documented.has(url))
      .map(([url, file]) => `${url} (${file})`);
    expect(missing).toEqual([]);
  });

  test("names only routes that exist", () => {
    const modules = routeModuleUrls();
    const unknown = documentedRoutes().filter((url) => !modules.has(url) && !servedOutsideRoutes(url));
    expect(unknown).toEqual([]);
  });
});

/** An index as the table writes it: `collection {a:1, b:-1} unique sparse partial TTL`. */
function indexLine(collection: string, keys: Record<string, unknown>, options: Record<string, unknown>): string {
  const spec = `{${Object.entries(keys)
    .map(([field, order]) => `${field}:${String(order)}`)
    .join(",")}}`;
  const flags = [
    options.unique ? "unique" : "",
    options.sparse ? "sparse" : "",
    options.partialFilterExpression ? "partial" : "",
    options.expireAfterSeconds !== undefined ? "TTL" : "",
  ].filter(Boolean);
  return [collection, spec, ...flags].join(" ");
}

/** Every source file under app/, server/ and shared/ that defines a Mongoose schema (or a gap-free sequence's). */
function schemaFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const file = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(file);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        if (/new (mongoose\.)?Schema\b|gapFreeSequence\(/.test(read(file))) found.push(file);
      }
    }
  };
  for (const dir of ["app", "server", "shared"]) walk(dir);
  return found;
}

describe("the index table in docs/database.md", () => {
  test("names every index the models declare, and only those", async () => {
    const files = schemaFiles();
    expect(files).toContain("app/orders/model/schema.server.ts");
    for (const file of files) await import(/* @vite-ignore */ pathToFileURL(path.join(root, file)).href);

    const declared = mongoose.modelNames().flatMap((name) => {
      const model = mongoose.model(name);
      return model.schema.indexes().map(([keys, options]) => indexLine(model.collection.collectionName, keys, options));
    });
    const documented = tableUnder("docs/database.md", "Indexes").map(([collection = "", index = "", options = ""]) => {
      const keys = Object.fromEntries(
        index
          .replace(/^`\{|\}`$/g, "")
          .split(",")
          .map((pair) => pair.trim().split(":") as [string, string]),
      );
      const flags = {
        unique: /\bunique\b/.test(options),
        sparse: /\bsparse\b/.test(options),
        partialFilterExpression: /\bpartial\b/.test(options) || undefined,
        expireAfterSeconds: /\bTTL\b/.test(options) ? 0 : undefined,
      };
      return indexLine(collection, keys, flags);
    });

    expect(declared.length).toBeGreaterThan(50);
    expect({ undocumented: declared.filter((line) => !documented.includes(line)) }).toEqual({ undocumented: [] });
    expect({ notDeclared: documented.filter((line) => !declared.includes(line)) }).toEqual({ notDeclared: [] });
  }, 30_000);
});

describe("the tables that copy code", () => {
  test("every script the README's Scripts table names is in package.json", () => {
    const scripts = Object.keys((JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts);
    const named = tableUnder("README.md", "Scripts").flatMap(([cell = ""]) =>
      [...cell.matchAll(/npm (?:run )?([\w:-]+)|`([\w:-]+)`/g)].map(([, first, second]) => first ?? second!),
    );
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((name) => name !== "test" && !scripts.includes(name))).toEqual([]);
  });

  test("every variable of the README's Configuration table is a setting the shop reads, and every setting is in the deployment guide", async () => {
    const { ENV_NAMES } = await import("../../server/env");
    // Read by the tracing module itself (server/tracing.ts), before the settings are.
    const tracing = ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_SERVICE_NAME"];
    const named = tableUnder("README.md", "Configuration").flatMap(([cell = ""]) =>
      [...cell.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map(([, name]) => name!),
    );
    expect(named.filter((name) => !ENV_NAMES.includes(name) && !tracing.includes(name))).toEqual([]);
    const guide = read("docs/deployment.md");
    const settings = guide.slice(guide.indexOf("\n## Settings\n"));
    expect(ENV_NAMES.filter((name) => !settings.includes(`\`${name}\``))).toEqual([]);
  });
});
