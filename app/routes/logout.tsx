import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { redirectWithSuccess } from "~/services/toast.server";
import { endSession } from "~/services/session-cookie.server";

/** Signing out is a POST (the navbar's Sign Out form): the session record is deleted, the cookie cleared. */
export async function action({ request }: ActionFunctionArgs) {
  const headers = await endSession(request);
  return redirectWithSuccess("/", "You have signed out.", { headers });
}

/** A GET changes nothing. */
export async function loader() {
  return redirect("/");
}
