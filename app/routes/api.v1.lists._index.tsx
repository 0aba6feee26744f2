import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiCall, methodNotAllowed, ok, problem, readJson, validationProblem } from "~/services/api.server";
import { CreateListBody } from "~/services/api-list-schemas.server";
import { linesByNumber } from "~/services/saved-list-import.server";
import { createList, listJson, listsForApi } from "~/services/saved-lists.server";

/** GET /api/v1/lists: the key owner's saved lists and those their company shares, last changed first. */
export async function loader(args: LoaderFunctionArgs) {
  return apiCall(args, "read", async ({ user }) => ok({ data: await listsForApi(user) }));
}

/** POST /api/v1/lists: a new list with lines by part number (or OE number), checked as on the screen. */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== "POST") return methodNotAllowed("GET, POST");
  return apiCall(args, "order", async ({ user }) => {
    const body = await readJson(args.request, CreateListBody);
    const { lines, problems } = await linesByNumber(body.lines);
    if (problems.length) {
      return validationProblem(
        problems.map(({ index, field, message }) => ({ field: `lines.${index}.${field}`, message })),
      );
    }
    const created = await createList(user, { name: body.name, shared: body.shared, lines }, args.context);
    if (!created.ok) return problem(created.status === 404 ? 403 : created.status, created.message);
    return ok(listJson(user, created.list), {
      status: 201,
      headers: { Location: `/api/v1/lists/${created.list.id}` },
    });
  });
}
