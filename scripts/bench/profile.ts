/**
 * A V8 CPU profile (`node --cpu-prof`) summarised by where the code lives: each package of
 * node_modules, Node's own internals, the shop's build, and garbage collection. Self time of
 * every sample, as a share of the busy (non-idle) time.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

type ProfileNode = { id: number; callFrame: { url: string; functionName: string } };
type Profile = { nodes: ProfileNode[]; startTime: number; samples: number[]; timeDeltas: number[] };

/** Where a function's code lives: an npm package, node's internals, the app's build, or V8 itself. */
export function placeOf(url: string, functionName: string) {
  if (functionName === "(garbage collector)") return "garbage collection";
  if (functionName === "(program)") return "V8 and native code";
  const inModules = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (inModules) return inModules[1];
  if (url.startsWith("node:")) return "node (http, streams, zlib…)";
  if (!url) return "V8 and native code";
  return "the app's own build";
}

/** Now on the clock of V8's profiles (monotonic, in µs), to leave out what came before it. */
export function profileClock() {
  return Number(process.hrtime.bigint() / 1000n);
}

/**
 * Busy-time shares (percent) by place, over every profile file in `dir`, largest first; only
 * samples taken after `since` (profileClock), so the server's start (module loading) is left out.
 */
export function profileShares(dir: string, since = 0) {
  const totals = new Map<string, number>();
  let busy = 0;
  for (const file of readdirSync(dir).filter((name) => name.endsWith(".cpuprofile"))) {
    const profile = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as Profile;
    const place = new Map(profile.nodes.map((node) => [node.id, node]));
    let at = profile.startTime;
    profile.samples.forEach((id, index) => {
      const delta = profile.timeDeltas[index] ?? 0;
      at += delta;
      const node = place.get(id);
      if (at < since || !node || node.callFrame.functionName === "(idle)") return;
      const where = placeOf(node.callFrame.url, node.callFrame.functionName);
      totals.set(where, (totals.get(where) ?? 0) + delta);
      busy += delta;
    });
  }
  return [...totals.entries()]
    .map(([where, time]) => [where, (time / busy) * 100] as const)
    .sort((a, b) => b[1] - a[1]);
}
