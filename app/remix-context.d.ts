import "@remix-run/node";

declare module "@remix-run/node" {
  interface AppLoadContext {
    cspNonce: string;
    /** The client's IP address (Express's req.ip; set TRUST_PROXY=1 behind one proxy). */
    clientIp?: string;
    /** Set by entry.server when rendering failed after the shell was sent (the page is not cached). */
    renderFailed?: boolean;
  }
}
