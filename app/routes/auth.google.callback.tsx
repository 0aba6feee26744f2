import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { finishGoogleSignIn } from "~/services/google-sign-in.server";
import { startSession } from "~/services/session-cookie.server";
import { safeRedirect } from "~/domain/safe-redirect";
import { finishSignIn, redirectAfterSignIn } from "~/services/sign-in-intent.server";

/**
 * Google sends the user back here. Success: a new session and the page they started from.
 * Cancelled or failed: back to the login page, which says what happened; never an error page.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { result, redirectTo, clearCookies } = await finishGoogleSignIn(request);
  const back = safeRedirect(typeof redirectTo === "string" ? redirectTo : null, "");
  const headers = new Headers();
  for (const cookie of clearCookies) headers.append("Set-Cookie", cookie);
  if ("failure" in result) {
    const params = new URLSearchParams({ googleError: result.failure });
    if (back) params.set("redirectTo", back);
    return redirect(`/login?${params}`, { headers });
  }
  headers.append("Set-Cookie", (await startSession(request, result.user.id, context))["Set-Cookie"]);
  // An Add to cart that waited through Google goes into the cart now.
  const finished = await finishSignIn(request, result.user, back);
  for (const cookie of finished.setCookies) headers.append("Set-Cookie", cookie);
  return redirectAfterSignIn(finished, headers);
}
