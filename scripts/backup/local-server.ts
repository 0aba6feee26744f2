import {
  constants,
  copyFileSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  statfsSync,
  statSync,
} from "node:fs";
import path from "node:path";

/** A local database server (scripts/local-db/LocalMongo.java) running on this machine. */
export type RunningLocalDb = { pid: number; port: number; dataFile: string };

/** Every one on this machine that this user may see, from /proc: `java … LocalMongo <port> <data file>`. */
export function runningLocalDbs(): RunningLocalDb[] {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const found: RunningLocalDb[] = [];
  for (const pid of pids) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      const at = args.indexOf("LocalMongo");
      const [port, file] = [args[at + 1], args[at + 2]];
      if (at < 0 || !/^\d+$/.test(port ?? "") || !file) continue;
      found.push({
        pid: Number(pid),
        port: Number(port),
        dataFile: path.resolve(readlinkSync(`/proc/${pid}/cwd`), file),
      });
    } catch {
      // Ended meanwhile, or another user's.
    }
  }
  return found;
}

const real = (file: string) => {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
};

/** The server that has this data file open, if one runs. */
export function ownerOf(dataFile: string) {
  return runningLocalDbs().find((server) => real(server.dataFile) === real(dataFile));
}

/** The server a loopback MONGODB_URI names (one host, with its port), if it is a local database. */
export function serverAt(uri: string) {
  const port = /^mongodb:\/\/(?:[^@/]*@)?(?:127\.0\.0\.1|localhost|\[::1\]):(\d+)(?:[/?]|$)/.exec(uri)?.[1];
  return port ? runningLocalDbs().find((server) => server.port === Number(port)) : undefined;
}

/** Each thread's state letter in /proc (T: stopped by a signal; Z and X: ending). */
function threadStates(pid: number) {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0];
  });
}

/**
 * Copies the server's data file while the server is stopped (SIGSTOP, then SIGCONT): the copy is
 * the file a crash at that instant would leave, which H2's MVStore opens at its last whole commit,
 * and the launcher commits each write before acknowledging it, so every acknowledged write is in
 * the copy. The copy starts only once every thread of the server has stopped (a write under way
 * finishes first). Returns how long the server was paused, in ms.
 */
export function copyPaused(server: RunningLocalDb, to: string, minFreeBytes = 64 << 20) {
  const size = statSync(server.dataFile).size;
  const disk = statfsSync(path.dirname(to));
  if (disk.bavail * disk.bsize < size + minFreeBytes)
    throw new Error(`not enough free space in ${path.dirname(to)} for a copy of ${size >> 20} MB`);
  const started = performance.now();
  process.kill(server.pid, "SIGSTOP");
  try {
    while (!threadStates(server.pid).every((state) => "TtZX".includes(state ?? ""))) {
      if (performance.now() - started > 5000) throw new Error(`the database server (pid ${server.pid}) did not pause`);
    }
    // A reflink where the file system has them (instant), a copy in the kernel otherwise.
    copyFileSync(server.dataFile, to, constants.COPYFILE_FICLONE);
  } finally {
    process.kill(server.pid, "SIGCONT");
  }
  return performance.now() - started;
}
