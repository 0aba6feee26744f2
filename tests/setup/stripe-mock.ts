import type { Provider } from "./providers";

/** Starts stripe-mock and returns STRIPE_* variables pointing at it. Not wired up yet. */
export async function startStripeMock(): Promise<Provider> {
  return { env: {}, stop: async () => {} };
}
