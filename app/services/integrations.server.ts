/**
 * Which third-party integrations this shop has keys for. Only admins (their dashboard) see the
 * names of the settings that are missing; /healthz reports the booleans; customers never see either.
 */
import { getEnv, isGoogleConfigured } from "./env.server";
import { canTakeCardPayments, missingStripeVariables } from "./stripe.server";

export type IntegrationStatus = {
  key: "stripe" | "google";
  name: string;
  configured: boolean;
  /** The environment variables still to set (empty when configured). */
  missing: string[];
  /** What customers get while it is missing. */
  withoutIt: string;
};

export function integrationStatus(env = getEnv()): IntegrationStatus[] {
  const googleMissing = (["GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET"] as const).filter((name) => !env[name]);
  return [
    {
      key: "stripe",
      name: "Card payments (Stripe)",
      configured: canTakeCardPayments(env),
      missing: missingStripeVariables(env),
      withoutIt:
        "orders stay unpaid until a bank transfer is recorded; the Pay screen says card payment is off and to pay by bank transfer against the pro-forma, and gives the shop's contact details",
    },
    {
      key: "google",
      name: "Google sign-in",
      configured: isGoogleConfigured(env),
      missing: googleMissing,
      withoutIt: "the Google button is not shown on Login and Sign up",
    },
  ];
}
