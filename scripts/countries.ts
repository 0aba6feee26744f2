/**
 * Writes app/content/countries.ts: every ISO 3166-1 alpha-2 code (i18n-iso-countries) with its English
 * name from this Node's CLDR data, sorted by name. A fixed list, because browsers' CLDR names differ
 * from the server's (Hong Kong, Macao, Palestine, …) and a country list must render the same on both.
 * Run: npx tsx scripts/countries.ts
 */
import { writeFileSync } from "node:fs";
import countries from "i18n-iso-countries";

const displayNames = new Intl.DisplayNames(["en"], { type: "region", fallback: "code" });
const list = Object.keys(countries.getAlpha2Codes())
  .map((code) => ({ code, name: displayNames.of(code) ?? code }))
  .sort((a, b) => a.name.localeCompare(b.name, "en"));
const body = list.map(({ code, name }) => `  [${JSON.stringify(code)}, ${JSON.stringify(name)}],`).join("\n");
writeFileSync(
  new URL("../app/content/countries.ts", import.meta.url),
  `// Written by scripts/countries.ts (ISO 3166-1 codes, English names): edit there, not here.\n` +
    `/** Every country an address may name, by English name: [ISO 3166-1 alpha-2 code, name]. */\n` +
    `export const COUNTRY_NAMES: ReadonlyArray<readonly [string, string]> = [\n${body}\n];\n`,
);
console.log(`${list.length} countries written to app/content/countries.ts`);
