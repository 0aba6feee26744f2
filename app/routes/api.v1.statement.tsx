import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { statementJson } from "~/orders/api-statement.server";
import { statementPeriodSchema } from "~/domain/statement";
import { apiCall, fieldErrors, methodNotAllowed, ok, problem } from "~/services/api.server";
import { can } from "~/services/companies.server";

/**
 * GET /api/v1/statement: the statement of account, as /dashboard/statement: open invoices on
 * account, the ledger with its running balance, what each side owes and its ageing; ?from=&to=
 * (UTC days, both optional) for a period. Each amount names its currency (api-statement.server.ts).
 */
export async function loader(args: LoaderFunctionArgs) {
  return apiCall(args, "read", async ({ user }) => {
    // As on /dashboard/statement: a company's owners and accounts people read it, not its buyers.
    if (!can(user, "finance")) return problem(403, "The statement is for the company's owners and accounts people.");
    const search = new URL(args.request.url).searchParams;
    const parsed = statementPeriodSchema.safeParse({
      from: search.get("from") || undefined,
      to: search.get("to") || undefined,
    });
    if (!parsed.success)
      return problem(400, "from and to are days such as 2026-01-31, to not before from: see errors.", {
        errors: fieldErrors(parsed.error),
      });
    return ok(await statementJson(user, parsed.data));
  });
}

export const action = (_args: ActionFunctionArgs) => methodNotAllowed("GET");
