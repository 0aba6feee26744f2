import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiCall, idempotent, methodNotAllowed, ok, readJson } from "~/services/api.server";
import { AcceptQuoteBody } from "~/services/api-quote-schemas.server";
import { orderJson } from "~/orders/api-view.server";
import { notPlacedProblem } from "~/orders/place-replies.server";
import { quoteRefusalProblem } from "~/orders/quote-api.server";
import { acceptQuote } from "~/orders/quotes.server";

/**
 * POST /api/v1/quotes/{id}/accept: accepts a version, which places the order at its prices through
 * checkout (as Accept on the quote's page): 201 with the order, or checkout's refusal as POST /orders
 * says it (its `lines.N` are the version's lines ordered, in order). Idempotency-Key makes a retry safe.
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== "POST") return methodNotAllowed("POST");
  return apiCall(args, "order", async ({ user }) => {
    const body = await readJson(args.request, AcceptQuoteBody);
    const quoteId = args.params.id ?? "";
    return idempotent(
      args.request,
      { ownerId: user.id, operation: "accept-quote", body: { quoteId, body } },
      async () => {
        const placed = await acceptQuote(user, quoteId, {
          intent: "accept",
          version: body.version,
          partIds: body.partIds,
          phone: body.phone,
          delivery: body.deliveryAddress,
          poNumber: body.poNumber,
          payment: body.payment,
        });
        if ("errors" in placed) return quoteRefusalProblem(placed.status, placed.errors);
        if (!placed.ok) return notPlacedProblem(placed, () => undefined);
        if (!("order" in placed)) throw new Error("Accepting a quote answers with an order or a refusal");
        return ok(orderJson(placed.order), { status: 201, headers: { Location: `/api/v1/orders/${placed.order.id}` } });
      },
    );
  });
}

export const loader = (_args: LoaderFunctionArgs) => methodNotAllowed("POST");
