import { readFileSync } from "node:fs";
import path from "node:path";
import { getEnv } from "./env.server";
import { logFailure } from "../../server/request-context";

let assets: Record<string, string> | undefined;

/**
 * The address of a script of app/browser/ as built with its content hash (scripts/build-browser.ts),
 * or null when the build has none (the page then works as it does without JavaScript).
 */
export function browserAsset(name: string): string | null {
  if (!assets) {
    try {
      assets = JSON.parse(readFileSync(path.join(getEnv().BUILD_DIR, "browser-assets.json"), "utf8"));
    } catch (error) {
      logFailure("No browser-assets.json in the build: run `npm run build:browser`", error);
      assets = {};
    }
  }
  return assets?.[name] ?? null;
}
