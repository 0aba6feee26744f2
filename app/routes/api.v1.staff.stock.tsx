import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiCall, methodNotAllowed, ok, problem, readJson, validationProblem } from "~/services/api.server";
import { StockUpdatesBody } from "~/services/api-schemas.server";
import { applyBackorderPolicies, dryRunUpdates } from "~/services/stock-import.server";
import { applyStockChanges } from "~/orders/restock.server";

/**
 * POST /api/v1/staff/stock: stock and prices of one part or many, with the CSV import's checks
 * (the same dry run) and its audit; all or nothing: one bad update and nothing is written.
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== "POST") return methodNotAllowed("POST");
  return apiCall(args, "stock", async ({ user }) => {
    const body = await readJson(args.request, StockUpdatesBody);
    const dryRun = await dryRunUpdates(
      body.updates.map((u) => ({ partNumber: u.partNumber, stock: u.stock, priceCents: u.price })),
    );
    if (dryRun.problems.length) {
      return validationProblem(
        dryRun.problems.flatMap((p) =>
          p.reasons.map((reason) => ({ field: `updates.${p.line - 2}.partNumber`, message: reason })),
        ),
      );
    }
    const { applied, conflicts } = await applyStockChanges(dryRun.changes, { actor: user, context: args.context });
    // Backorder settings of the parts named (each found by the dry run above).
    const policies = await applyBackorderPolicies(
      body.updates.flatMap((update, index) =>
        update.backorder ? [{ partId: dryRun.partIds[index], backorder: update.backorder }] : [],
      ),
      { actor: user, context: args.context },
    );
    const changes = dryRun.rows.map((row) => ({
      partNumber: row.partNumber,
      field: row.field,
      before: row.before,
      after: row.after,
    }));
    if (conflicts.length) {
      return problem(409, "Some parts changed while they were updated: see errors; the others were applied.", {
        errors: conflicts.map((c) => ({ field: `updates.${c.line - 2}`, message: `${c.name}: ${c.reason}` })),
        extra: { applied },
      });
    }
    return ok({ applied: applied + policies, unchanged: dryRun.unchanged, changes });
  });
}

export const loader = (_args: LoaderFunctionArgs) => methodNotAllowed("POST");
