import "@remix-run/node";

declare module "@remix-run/node" {
  interface AppLoadContext {
    cspNonce: string;
    /** Adds a Server-Timing entry (database time, rendering time). */
    serverTiming?: { db: number };
    /** The client's IP address (Express's req.ip; set TRUST_PROXY=1 behind one proxy). */
    clientIp?: string;
  }
}
