// The shop's screens and services read the environment validated by the server (server/env.ts).
export {
  getEnv,
  getPublicEnv,
  isGoogleConfigured,
  isStripeConfigured,
  type Env,
  type PublicEnv,
} from "../../server/env";
