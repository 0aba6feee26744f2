import { createCookie } from "@remix-run/node";
import { findMake, findModel, FIRST_MODEL_YEAR, LAST_MODEL_YEAR, type Vehicle } from "~/content/vehicles";
import { getEnv } from "./env.server";

const env = getEnv();

/**
 * The visitor's vehicle, remembered for the browser session (no Max-Age) in a small signed
 * cookie of its own, so it works signed in or not. Any page that reads it is private
 * (cache.server.ts treats it like the session cookie).
 */
export const VEHICLE_COOKIE_NAME = "__vehicle";

const vehicleCookie = createCookie(VEHICLE_COOKIE_NAME, {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  secure: env.NODE_ENV === "production" && env.PUBLIC_URL.startsWith("https:"),
  secrets: [env.SESSION_SECRET],
});

/** Make, model and year checked against the vehicle list; anything else is no vehicle. */
export function toVehicle(value: unknown): Vehicle | null {
  if (typeof value !== "object" || value === null) return null;
  const { make: makeName, model: modelName, year } = value as Record<string, unknown>;
  if (typeof makeName !== "string" || typeof modelName !== "string" || typeof year !== "number") return null;
  const make = findMake(makeName);
  const model = findModel(make, modelName);
  if (!make || !model || !Number.isInteger(year) || year < FIRST_MODEL_YEAR || year > LAST_MODEL_YEAR) return null;
  return { make: make.name, model: model.name, year };
}

/** The remembered vehicle of this request, or null (none, tampered with, or no longer listed). */
export async function getRememberedVehicle(request: Request) {
  try {
    return toVehicle(await vehicleCookie.parse(request.headers.get("Cookie")));
  } catch {
    return null;
  }
}

export function rememberVehicle(vehicle: Vehicle) {
  return vehicleCookie.serialize({ make: vehicle.make, model: vehicle.model, year: vehicle.year });
}

export function forgetVehicle() {
  return vehicleCookie.serialize("", { maxAge: 0 });
}
