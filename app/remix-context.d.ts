import "@remix-run/node";
import type { Logger } from "pino";

declare module "@remix-run/node" {
  interface AppLoadContext {
    cspNonce: string;
    /** The client's IP address (Express's req.ip: from X-Forwarded-For only with TRUST_PROXY). */
    clientIp: string;
    /** This request's id (X-Request-Id), shown on the error page so a customer can quote it. */
    requestId: string;
    /** The request's logger: every line it writes carries the request id. */
    logger: Logger;
    /** Set while the database answers reads but cannot take writes (server/db-outage.ts); Shop Today shows it. */
    databaseStorage?: "disk full" | null;
  }

  // Single fetch: loaders and actions return plain data (or `data()`), and `useLoaderData<typeof
  // loader>` types what turbo-stream carries (Dates stay Dates) rather than JSON.
  interface Future {
    v3_singleFetch: true;
  }
}
