/**
 * What the Express server (server.ts) takes from the app, handed over by the Remix build (its
 * server entry exports it): the database connection and its health, migrations, the demo data, the
 * workers, the request context and timing middleware, the readings /metrics takes, and the
 * validated settings; it takes the shop's logger for the app's own lines (server/log-line.ts). So
 * each of these modules is loaded once per process, from the build, and server.ts bundles none of app/.
 */
import type { Logger } from "pino";
import { requestContext, requestContextOf, serverTiming, useShopLogger } from "../server/request-context";
import { getEnv, isGoogleConfigured, isStripeConfigured, TRUST_PROXY_COUNT_WARNING } from "../server/env";
import { backfillCatalogueKeys } from "~/models/part-catalogue.server";
import { startStockJobs } from "~/orders/stock-jobs.server";
import {
  checkDbHealth,
  connectDb,
  disconnectDb,
  isDbBusyError,
  isDbFullError,
  isDbUnavailableError,
  lastDbAnswerAt,
  probeDb,
  provideModelSettingsFromEnv,
  syncIndexes,
  warmPool,
} from "~/services/db.server";
import { ensureDemoData } from "~/demo/data.server";
import { startMailWorker } from "~/services/mail-worker.server";
import { sweepOrderEvents } from "~/orders/event-sweep.server";
import { migrateDb } from "~/services/migrate.server";
import { pdfQueue, readShopGauges } from "~/orders/metrics.server";

/**
 * The database's faults the shop gets over by itself, named for the one-line log; a job still
 * running when the shop closes its connection to stop is one of them.
 */
const databaseFault = (error: unknown) =>
  isDbFullError(error)
    ? "disk full"
    : isDbUnavailableError(error) || (error instanceof Error && error.name === "MongoClientClosedError")
      ? "database unavailable"
      : isDbBusyError(error)
        ? "database busy"
        : null;

export const shopRuntime = {
  env: { getEnv, isGoogleConfigured, isStripeConfigured, TRUST_PROXY_COUNT_WARNING },
  db: {
    checkDbHealth,
    connectDb,
    disconnectDb,
    isDbBusyError,
    isDbFullError,
    isDbUnavailableError,
    lastDbAnswerAt,
    probeDb,
    provideModelSettingsFromEnv,
    syncIndexes,
    warmPool,
  },
  migrateDb,
  backfillCatalogueKeys,
  ensureDemoData,
  // The order module's sweep of events left without their mail runs in the mail worker's sweep.
  startMailWorker: (options: Omit<Parameters<typeof startMailWorker>[0], "writeLeftMail">) =>
    startMailWorker({ ...options, writeLeftMail: sweepOrderEvents }),
  startStockJobs,
  requestContext,
  requestContextOf,
  useLogger: (logger: Logger) => useShopLogger(logger, databaseFault),
  serverTiming,
  metrics: { readShopGauges, pdfQueue },
};

export type ShopRuntime = typeof shopRuntime;
