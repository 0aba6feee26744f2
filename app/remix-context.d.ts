import "@remix-run/node";

declare module "@remix-run/node" {
  interface AppLoadContext {
    cspNonce: string;
    /** Adds a Server-Timing entry (database time, rendering time). */
    serverTiming?: { db: number };
  }
}
