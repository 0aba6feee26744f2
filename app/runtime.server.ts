/**
 * What the Express server (server.ts) takes from the app, handed over by the Remix build (its
 * server entry exports it): the database connection and its health, migrations, the demo data, the
 * workers, the request context and timing middleware, and the validated settings. So each of these
 * modules is loaded once per process, from the build, and server.ts bundles none of app/.
 */
import { requestContext, requestContextOf, serverTiming } from "../server/request-context";
import { EnvError, getEnv, isGoogleConfigured, isStripeConfigured, TRUST_PROXY_COUNT_WARNING } from "../server/env";
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
import { ensureDemoData } from "~/services/demo-data.server";
import { startMailWorker } from "~/services/mail-worker.server";
import { migrateDb } from "~/services/migrate.server";

export const shopRuntime = {
  env: { EnvError, getEnv, isGoogleConfigured, isStripeConfigured, TRUST_PROXY_COUNT_WARNING },
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
  startMailWorker,
  startStockJobs,
  requestContext,
  requestContextOf,
  serverTiming,
};

export type ShopRuntime = typeof shopRuntime;
