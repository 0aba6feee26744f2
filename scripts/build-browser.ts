/**
 * Builds the scripts of pages sent without the framework (app/browser/*.ts) for the browser, each
 * named with a hash of its content, and writes where they are for the server to link
 * (`$BUILD_DIR/browser-assets.json`, read by app/services/browser-assets.server.ts).
 *
 *   tsx scripts/build-browser.ts         into the build's assets (served under /build, cached for a year)
 *   tsx scripts/build-browser.ts --dev   into public/build (`remix dev` empties the build's assets on every rebuild)
 */
import { build } from "esbuild";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const buildDir = process.env.BUILD_DIR || "build";
const outdir = process.argv.includes("--dev")
  ? path.join("public", "build", "_static")
  : path.join(buildDir, "client", "build", "_static");

const result = await build({
  entryPoints: { "static-page": "app/browser/static-page.ts" },
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2019",
  entryNames: "[name]-[hash]",
  outdir,
  metafile: true,
  logLevel: "warning",
});

// Both folders are served at /build (public/ when the build's own has no such file).
const assets: Record<string, string> = {};
for (const [file, output] of Object.entries(result.metafile.outputs)) {
  if (!output.entryPoint) continue;
  const name = path.basename(file).replace(/-[A-Z0-9]+\.js$/, "");
  assets[name] = `/build/_static/${path.basename(file)}`;
}
mkdirSync(buildDir, { recursive: true });
writeFileSync(path.join(buildDir, "browser-assets.json"), JSON.stringify(assets, null, 2) + "\n");
console.log(`browser scripts: ${Object.values(assets).join(", ")}`);
