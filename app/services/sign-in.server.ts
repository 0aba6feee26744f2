import type { AppLoadContext } from "@remix-run/node";
import { Authenticator, AuthorizationError } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { getUserWithPasswordHash } from "~/models/user-credentials.server";
import { type UserView } from "~/models/user.server";
import { hashPassword, verifyPassword } from "./password.server";
import { authSessionStorage } from "./session-cookie.server";

/** The one message for every failed password sign-in: it never tells whether the email exists. */
export const INVALID_LOGIN = "Invalid email or password";

let dummyHash: Promise<string> | undefined;

/** The user for this email and password, or null. Takes about as long either way. */
export async function verifyLogin(email: string, password: string) {
  const found = await getUserWithPasswordHash(email);
  if (!found?.passwordHash) {
    // Unknown email or a Google-only account: spend the same hashing time, then fail the same way.
    dummyHash ??= hashPassword("not-a-real-password-0000");
    await verifyPassword(await dummyHash, password);
    return null;
  }
  return (await verifyPassword(found.passwordHash, password)) ? found.user : null;
}

let passwordAuthenticator: Authenticator<UserView> | undefined;

/** remix-auth's FormStrategy; no redirect is asked of it, so it never writes the session storage it is given. */
function getPasswordAuthenticator() {
  passwordAuthenticator ??= new Authenticator<UserView>(authSessionStorage).use(
    new FormStrategy(async ({ form }) => {
      const user = await verifyLogin(String(form.get("email") ?? ""), String(form.get("password") ?? ""));
      if (!user) throw new Error(INVALID_LOGIN);
      return user;
    }),
    "form",
  );
  return passwordAuthenticator;
}

/** The Cookie header only: the strategies read the URL and cookies, never the (consumed) body. */
export function bodylessCopy(request: Request, method: "GET" | "POST") {
  return new Request(request.url, { method, headers: { Cookie: request.headers.get("Cookie") ?? "" } });
}

/**
 * Email and password sign-in through remix-auth's FormStrategy. `formData` is the already parsed
 * form (its email and password passed the schema). Returns the user, or null for a wrong password,
 * an unknown email or a Google-only account alike.
 */
export async function authenticateWithPassword(request: Request, formData: FormData, context: AppLoadContext) {
  try {
    return await getPasswordAuthenticator().authenticate("form", bodylessCopy(request, "POST"), {
      throwOnError: true,
      context: { ...context, formData },
    });
  } catch (error) {
    if (error instanceof AuthorizationError) return null;
    throw error;
  }
}
