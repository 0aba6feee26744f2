import type { Provider } from "./providers";

/** Starts a local OAuth2 server and returns GOOGLE_* variables pointing at it. Not wired up yet. */
export async function startOAuthServer(): Promise<Provider> {
  return { env: {}, stop: async () => {} };
}
