import { createCookieSessionStorage } from "@remix-run/node";
import { getEnv } from "./env.server";

const env = getEnv();
const secure = env.NODE_ENV === "production" && env.PUBLIC_URL.startsWith("https:");

/** Holds only the opaque id of a Session record (app/models/session.server.ts). */
export const authSessionStorage = createCookieSessionStorage<{ sessionId: string }>({
  cookie: {
    name: "__session",
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure,
    secrets: [env.SESSION_SECRET],
    // The longest a session can live (its record decides; README "Configuration").
    maxAge: env.SESSION_MAX_HOURS * 60 * 60,
  },
});
