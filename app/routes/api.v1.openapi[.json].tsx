import type { LoaderFunctionArgs } from "@remix-run/node";
import { getEnv } from "~/services/env.server";
import { openApiDocument } from "~/services/openapi.server";

/** GET /api/v1/openapi.json: the API's description (public: it holds no data). */
export function loader(_args: LoaderFunctionArgs) {
  return new Response(JSON.stringify(openApiDocument(getEnv().PUBLIC_URL)), {
    headers: { "Content-Type": "application/json", "Cache-Control": "public, max-age=300" },
  });
}
