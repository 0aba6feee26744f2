/**
 * No route module, component, model or order module grows past 400 lines: one that does holds two
 * ideas, and the second goes to a module of its own (a component, a service, a route-private
 * `*.server.ts`). Plain reads of files: no database, no shop.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const FOLDERS = ["app/routes", "app/components", "app/models", "app/orders"];
const MAX_LINES = 400;

/** Every file under `dir` (relative to the project), its subfolders' too. */
function filesUnder(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    return entry.isDirectory() ? filesUnder(file) : [file];
  });
}

/** Lines as `wc -l` counts them: a last line without its newline is a line too. */
function lineCount(file: string) {
  const text = readFileSync(path.join(root, file), "utf8");
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

test(`no file in ${FOLDERS.join(", ")} is over ${MAX_LINES} lines`, () => {
  const files = FOLDERS.flatMap(filesUnder);
  expect(files).toContain("app/routes/parts._index.tsx");
  const tooLong = files
    .map((file) => ({ file, lines: lineCount(file) }))
    .filter(({ lines }) => lines > MAX_LINES)
    .map(({ file, lines }) => `${file}: ${lines} lines`);
  expect(tooLong).toEqual([]);
});
