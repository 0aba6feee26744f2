import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiCall, methodNotAllowed, notFound, ok } from "~/services/api.server";
import { partDetailJson } from "~/services/api-views.server";
import { getPartCatalogue } from "~/models/part-catalogue.server";
import { findPartByNumber } from "~/services/part-number.server";
import { priceCards } from "~/services/pricing.server";

/**
 * GET /api/v1/parts/{number}: one part by its part number or an OE number, with stock, the key
 * owner's price in their company's currency and the part's price lists in every currency.
 */
export async function loader(args: LoaderFunctionArgs) {
  return apiCall(args, ["read", "stock"], async ({ user }) => {
    const part = await findPartByNumber((args.params.number ?? "").slice(0, 40));
    const catalogue = part && (await getPartCatalogue(part.id));
    if (!part || !catalogue) throw notFound("No part has that part number or OE number.");
    const [priced] = await priceCards(user, [part]);
    return ok(partDetailJson({ ...priced, ...catalogue }, { ...part, ...catalogue }, catalogue));
  });
}

export const action = (_args: ActionFunctionArgs) => methodNotAllowed("GET");
