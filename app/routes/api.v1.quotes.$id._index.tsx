import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiCall, methodNotAllowed, notFound, ok } from "~/services/api.server";
import { quoteJson } from "~/orders/quote-api.server";
import { quoteForCustomer } from "~/orders/quotes.server";

/** GET /api/v1/quotes/{id}: one of the quotes the key owner sees (any other id is a 404). */
export async function loader(args: LoaderFunctionArgs) {
  return apiCall(args, "read", async ({ user }) => {
    const quote = await quoteForCustomer(args.params.id ?? "", user);
    if (!quote) throw notFound("No such quote in your account.");
    return ok(quoteJson(quote));
  });
}

export const action = (_args: ActionFunctionArgs) => methodNotAllowed("GET");
