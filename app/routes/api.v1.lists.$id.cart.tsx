import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { ACCOUNTS_CANNOT_ORDER } from "~/orders/service.server";
import { apiCall, methodNotAllowed, notFound, ok, problem } from "~/services/api.server";
import { can } from "~/services/companies.server";
import { addListToCart, LIST_NOT_FOUND, listForApi } from "~/services/saved-lists.server";

/**
 * POST /api/v1/lists/{id}/cart: every line of the list into the key owner's cart, as "Add all to
 * cart" does; the lines that cannot go in come back with the reason.
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== "POST") return methodNotAllowed("POST");
  return apiCall(args, "order", async ({ user }) => {
    const listId = args.params.id ?? "";
    if (!(await listForApi(user, listId))) throw notFound(LIST_NOT_FOUND);
    if (!can(user, "order")) return problem(403, ACCOUNTS_CANNOT_ORDER);
    const outcome = await addListToCart(user, listId);
    if (!outcome.ok) return problem(outcome.status, outcome.message);
    return ok({ added: outcome.added, refused: outcome.refused });
  });
}

export const loader = (_args: LoaderFunctionArgs) => methodNotAllowed("POST");
