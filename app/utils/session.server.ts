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
    maxAge: 30 * 24 * 60 * 60,
  },
});
