import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { isGoogleSignInAvailable, startGoogleSignIn } from "~/services/google-sign-in.server";
import { safeRedirect } from "~/domain/safe-redirect";
import { readForm } from "~/services/form.server";

/** The Google button's POST: off to Google, with the page to come back to kept in a cookie. */
export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  // None named: the person's own start page once Google knows who they are.
  const redirectTo = safeRedirect(formData.get("redirectTo"), "");
  if (!isGoogleSignInAvailable()) {
    return redirect(`/login?${new URLSearchParams({ googleError: "unavailable", redirectTo })}`);
  }
  return startGoogleSignIn(request, redirectTo);
}

/** Sign-in starts only from the button (a POST); a GET goes to the login page. */
export async function loader() {
  return redirect("/login");
}
