import type { LoaderFunctionArgs } from "@remix-run/node";
import { statementDownload } from "~/orders/statement-document.server";
import { requireAdmin } from "~/services/guards.server";

/** A company's statement for staff as a PDF or CSV (/dashboard/companies/:id/statement/pdf|csv), as the customer gets it. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  if (params.format !== "pdf" && params.format !== "csv") throw new Response("Not found", { status: 404 });
  return statementDownload(request, params.id ?? "", params.format, { requester: admin.id });
}
