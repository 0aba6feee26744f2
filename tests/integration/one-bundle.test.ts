/**
 * Each module once: the Express server's bundle (server.ts, built as `npm run build:server` builds
 * it) holds none of app/ and none of the server modules the app uses, which it takes from the Remix
 * build instead (app/runtime.server.ts). A module in both would exist twice in the process, each
 * copy with its own state.
 */
import { build } from "esbuild";
import { expect, test } from "vitest";

async function inputsOf(entry: string) {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    write: false,
    metafile: true,
    logLevel: "silent",
    loader: { ".json": "json" },
  });
  return Object.keys(result.metafile.inputs);
}

test("server.ts bundles no module the Remix build holds", async () => {
  const [server, app] = await Promise.all([inputsOf("server.ts"), inputsOf("app/runtime.server.ts")]);
  expect(server.filter((file) => file.startsWith("app/"))).toEqual([]);
  // What the app holds of server/ (its request context and timing, the settings) stays out of server.ts.
  const appsServerModules = app.filter((file) => file.startsWith("server/"));
  expect(appsServerModules).toEqual(expect.arrayContaining(["server/request-context.ts", "server/env.ts"]));
  expect(server.filter((file) => appsServerModules.includes(file))).toEqual([]);
});
