import type { Server } from "node:http";
import net, { type Socket } from "node:net";
import type { NextFunction, Request, Response } from "express";

/**
 * Graceful shutdown of the HTTP server (docs/deployment.md, "Stopping and deploying"). On the
 * first SIGTERM or SIGINT: readiness turns 503; for `delayMs` (the drain, for load balancers to
 * notice) the server still accepts and answers new connections, each answer on a connection opened
 * since the signal with `Connection: close`, while connections opened before it are kept (closing
 * them would only have their clients connect again, racing the listener's close); then it stops
 * accepting at the first moment no connection has arrived for `quietMs`, every request in flight
 * (and any sent on an open connection within a second) is answered with `Connection: close`, idle
 * connections close, and once the last request is answered the `cleanup` steps run
 * (job runner, mail, database). All of it within `timeoutMs`: past it the remaining connections
 * are cut and the process exits 1, saying how many.
 *
 * Closing a listening socket resets the connections still waiting in the kernel's accept queue,
 * after their clients have sent their requests: a connection per request arriving at that moment
 * is reset rather than refused. Hence the wait for a quiet moment, judged just after the event
 * loop has accepted everything waiting (below), and bounded (`quietWaitMs`) for clients that never
 * stop.
 *
 * Our own few lines: Node's server.close() leaves busy keep-alive connections open, and none of
 * the kept libraries drains an Express server with the readiness step first.
 */
export type Shutdown = {
  /** True once shutting down: /healthz answers 503 so that no new traffic is sent here. */
  readonly draining: boolean;
  /**
   * Express middleware: answers on connections opened since the signal, and every answer once the
   * listener has closed, close their connection.
   */
  closeConnections: (req: Request, res: Response, next: NextFunction) => void;
  /** Starts the shutdown (the signal handlers call it); resolves with the exit code. */
  begin: (reason: string) => Promise<number>;
};

type Logger = { info: (msg: string) => void; warn: (msg: string) => void; error: (msg: string) => void };

export function gracefulShutdown({
  server,
  timeoutMs,
  delayMs = 0,
  quietMs = 100,
  quietWaitMs = 2000,
  idleGraceMs = 1000,
  logger,
  cleanup,
}: {
  server: Server;
  timeoutMs: number;
  delayMs?: number;
  /** How long no new connection must have arrived before the listener closes. */
  quietMs?: number;
  /** How long after the drain the listener waits for that quiet moment at most (half `timeoutMs` at most). */
  quietWaitMs?: number;
  /** How long an idle keep-alive connection may still bring a request once the server stops accepting. */
  idleGraceMs?: number;
  logger: Logger;
  /** Steps after the last request is answered, each given the time left (ms); run in order. */
  cleanup: { name: string; run: (msLeft: number) => Promise<unknown> }[];
}): Shutdown {
  let draining = false;
  let exitCode: Promise<number> | undefined;
  const sockets = new Set<Socket>();
  const busy = new Map<Socket, Response>();
  /** When each connection last finished an answer (or opened): how long it has been idle. */
  const idleSince = new Map<Socket, number>();
  let lastConnectionAt = 0;
  let accepting = true;
  /** Connections opened since the signal. */
  const newcomers = new WeakSet<Socket>();

  server.on("connection", (socket: Socket) => {
    lastConnectionAt = Date.now();
    if (draining) newcomers.add(socket);
    sockets.add(socket);
    idleSince.set(socket, Date.now());
    socket.once("close", () => {
      sockets.delete(socket);
      busy.delete(socket);
      idleSince.delete(socket);
    });
  });

  const closeConnections = (req: Request, res: Response, next: NextFunction) => {
    busy.set(req.socket, res);
    res.once("finish", () => {
      busy.delete(req.socket);
      idleSince.set(req.socket, Date.now());
      // A response already under way when the listener closed could not carry the header, and
      // promised its client the connection: closing it now would reset the request the client may
      // be sending on it this instant. It is closed once idle (below), or answers that request
      // with Connection: close.
    });
    if (draining && (!accepting || newcomers.has(req.socket))) res.setHeader("Connection", "close");
    next();
  };

  /**
   * Closes the connections idle for `quietMs` (a client that reuses its connection sends its next
   * request within moments, and is answered with Connection: close instead).
   */
  function closeIdle(quietMs: number) {
    const now = Date.now();
    for (const socket of sockets) {
      if (busy.has(socket) || socket.writableEnded) continue;
      if (now - (idleSince.get(socket) ?? 0) >= quietMs) socket.end();
    }
  }

  /**
   * Closes the listener once no connection has arrived for `quietMs` (or at `until`), leaving the
   * open connections alone for now: http.Server.close() would also close idle keep-alive
   * connections at once, racing a request a client is sending on one. The decision runs in the
   * event loop's check phase (setImmediate), right after its poll phase has accepted every
   * connection the kernel held, so a quiet moment is one with nothing waiting in its queue.
   */
  function stopAccepting(until: number) {
    return new Promise<{ closed: Promise<void>; quiet: boolean }>((resolve) => {
      const check = () =>
        setImmediate(() => {
          const now = Date.now();
          const quiet = now - lastConnectionAt >= quietMs;
          if (!quiet && now < until) return void sleep(10).then(check);
          accepting = false;
          const closed = new Promise<void>((done) => net.Server.prototype.close.call(server, () => done()));
          resolve({ closed, quiet });
        });
      check();
    });
  }

  async function run(reason: string): Promise<number> {
    const started = Date.now();
    const msLeft = () => Math.max(0, timeoutMs - (Date.now() - started));
    draining = true;
    logger.info(
      `${reason}: shutting down within ${timeoutMs} ms (${busy.size} requests in flight, ${sockets.size} connections)`,
    );
    if (delayMs > 0) await sleep(Math.min(delayMs, msLeft()));

    const { closed, quiet } = await stopAccepting(Math.min(started + timeoutMs / 2, Date.now() + quietWaitMs));
    const after = `${Date.now() - started} ms`;
    if (quiet) logger.info(`shutdown: stopped accepting connections after ${after}`);
    else
      logger.warn(
        `shutdown: stopped accepting connections after ${after} while they still arrived ` +
          `(one waiting in the kernel's queue at that moment is reset)`,
      );
    for (const res of busy.values()) if (!res.headersSent) res.setHeader("Connection", "close");
    // A client still using its connection sends its next request within the grace and is answered
    // with Connection: close; a connection idle all that time is closed after it.
    await sleep(Math.min(idleGraceMs, msLeft()));
    closeIdle(idleGraceMs);

    let code = 0;
    // Answered when nothing has been in flight for 100 ms and every connection is closed or
    // closing (a request read just as its idle connection was closed still gets its answer).
    for (let quietSince = 0; msLeft() > 0; await sleep(25)) {
      closeIdle(idleGraceMs);
      const open = [...sockets].some((socket) => !socket.writableEnded);
      if (busy.size > 0 || open) quietSince = 0;
      else if (!quietSince) quietSince = Date.now();
      else if (Date.now() - quietSince >= 100) break;
    }
    if (busy.size > 0) {
      logger.error(`shutdown: ${busy.size} requests still running after ${timeoutMs} ms, cut off`);
      code = 1;
    }
    // Every answer is out: what is left are connections closed on our side whose clients have not
    // closed theirs yet (or the ones cut off above).
    for (const socket of sockets) socket.destroy();
    await Promise.race([closed, sleep(msLeft())]);
    for (const step of cleanup) {
      const left = msLeft();
      try {
        const done = await Promise.race([step.run(left).then(() => true), sleep(left).then(() => false)]);
        if (!done) {
          logger.error(`shutdown: ${step.name} did not finish within ${timeoutMs} ms`);
          code = 1;
        }
      } catch (error) {
        logger.warn(`shutdown: ${step.name} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    logger.info(`shutdown: done in ${Date.now() - started} ms`);
    return code;
  }

  return {
    get draining() {
      return draining;
    },
    closeConnections,
    begin(reason) {
      exitCode ??= run(reason);
      return exitCode;
    },
  };
}

function sleep(ms: number) {
  return new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
}
