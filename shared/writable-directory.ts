import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * (shared/: plain modules that the shop, its server and the tools may all import; they import none of them.)
 *
 * Why a data directory cannot be created or written, as its error code (EROFS, EACCES, ENOSPC …),
 * or null when it can: the settings (server/env.ts, the session secret) and the local database
 * (server/local-db.ts) both stop the start with one line naming it.
 */
export function unwritableBecause(directory: string): string | null {
  const tryWrite = (where: string) => {
    const probe = path.join(where, `.write-check-${process.pid}`);
    writeFileSync(probe, "");
    rmSync(probe);
  };
  try {
    mkdirSync(directory, { recursive: true });
    tryWrite(directory);
    return null;
  } catch (error) {
    let code = (error as NodeJS.ErrnoException).code ?? "error";
    // A recursive mkdir on a read-only disk says ENOENT: the nearest folder that exists says why.
    let existing = path.dirname(directory);
    while (!existsSync(existing) && existing !== path.dirname(existing)) existing = path.dirname(existing);
    try {
      if (code === "ENOENT") tryWrite(existing);
    } catch (cause) {
      code = (cause as NodeJS.ErrnoException).code ?? code;
    }
    return code;
  }
}
