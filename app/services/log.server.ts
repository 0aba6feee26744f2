/**
 * The shop's one-line log of failures (server/log-line.ts) for route modules, which take
 * server-only code from `*.server.ts` files only; services and models import it from
 * server/request-context.ts.
 */
export { appLogger, logFailure } from "../../server/request-context";
