import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiCall, methodNotAllowed, notFound, ok } from "~/services/api.server";
import { LIST_NOT_FOUND, listForApi } from "~/services/saved-lists.server";

/** GET /api/v1/lists/{id}: one list the key owner may see (any other id is a 404). */
export async function loader(args: LoaderFunctionArgs) {
  return apiCall(args, "read", async ({ user }) => {
    const list = await listForApi(user, args.params.id ?? "");
    if (!list) throw notFound(LIST_NOT_FOUND);
    return ok(list);
  });
}

export const action = (_args: ActionFunctionArgs) => methodNotAllowed("GET");
