/**
 * Start-up that waits and says so: the database may still be starting (a compose stack, a cold
 * boot), so the shop tries again with backoff for `waitMs`, one log line per attempt, and then
 * gives up with one line naming the problem. A malformed address is not retried.
 */
export class StartupError extends Error {}

type Logger = { warn: (msg: string) => void };

/** The address without its password, for log lines. */
export function redactUri(uri: string) {
  return uri.replace(/\/\/([^:@/]*):[^@/]*@/, "//$1:…@");
}

/** The first line of an error's message, without the driver's topology dump. */
export function oneLine(error: unknown) {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split("\n")[0] ?? "").slice(0, 300);
}

export async function connectWithRetry({
  uri,
  connect,
  waitMs,
  logger,
}: {
  uri: string;
  connect: () => Promise<unknown>;
  waitMs: number;
  logger: Logger;
}) {
  const started = Date.now();
  const where = redactUri(uri);
  for (let attempt = 1; ; attempt++) {
    try {
      await connect();
      return;
    } catch (error) {
      const name = error instanceof Error ? error.name : "";
      // The driver refuses the address itself (MongoRuntimeError: "Unable to parse host:99999 with URL").
      if (["MongoParseError", "MongoAPIError", "MongoInvalidArgumentError", "MongoRuntimeError"].includes(name)) {
        throw new StartupError(`MONGODB_URI is not a valid MongoDB address: ${oneLine(error)}`);
      }
      const elapsed = Date.now() - started;
      if (elapsed >= waitMs) {
        throw new StartupError(
          `The database at ${where} did not answer within ${Math.round(waitMs / 1000)} s (${attempt} attempts): ${oneLine(error)}`,
        );
      }
      const delay = Math.min(500 * 2 ** (attempt - 1), 5000, waitMs - elapsed);
      logger.warn(
        `Database at ${where} not reachable yet (attempt ${attempt}: ${oneLine(error)}); trying again in ${(delay / 1000).toFixed(1)} s`,
      );
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
