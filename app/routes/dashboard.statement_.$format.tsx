import type { LoaderFunctionArgs } from "@remix-run/node";
import { statementDownload } from "~/orders/statement-document.server";
import { can } from "~/services/companies.server";
import { requireCustomer } from "~/services/guards.server";

/** The customer's statement as a PDF (/dashboard/statement/pdf) or CSV (…/csv), for ?from=&to= as on the screen. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCustomer(request);
  if (!can(user, "finance"))
    throw new Response("The company's statement is for its owners and accounts.", { status: 403 });
  if (params.format !== "pdf" && params.format !== "csv") throw new Response("Not found", { status: 404 });
  return statementDownload(request, user.companyId, params.format, {
    requester: user.id,
    fallbackName: user.company.companyName || user.name,
  });
}
