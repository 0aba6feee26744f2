/**
 * A TypeScript entry point (a script of the project) run by node with tsx's loader: one process,
 * where `npx tsx` starts npm, then tsx, then node (about half a second of CPU more each time).
 */
export function tsxCommand(file: string, args: string[] = []): [string, string[]] {
  return [process.execPath, ["--import", "tsx", file, ...args]];
}
