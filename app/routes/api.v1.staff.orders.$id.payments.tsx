import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getOrderById } from "~/orders/model/reads.server";
import { apiCall, idempotent, methodNotAllowed, notFound, ok, problem, readJson } from "~/services/api.server";
import { PaymentBody } from "~/services/api-schemas.server";
import { orderJson } from "~/orders/api-view.server";
import { recordPayment } from "~/orders/service.server";

/**
 * POST /api/v1/staff/orders/{id}/payments: records money received outside Stripe (bank transfer,
 * cheque, cash), as the order's page does. Idempotency-Key makes a retry safe.
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== "POST") return methodNotAllowed("POST");
  return apiCall(args, "payments", async ({ user }) => {
    const current = await getOrderById(args.params.id ?? "");
    if (!current) throw notFound("That order does not exist.");
    const body = await readJson(args.request, PaymentBody);
    const operation = `record-payment:${current.id}`;
    return idempotent(args.request, { ownerId: user.id, operation, body }, async () => {
      const recorded = await recordPayment(
        current.id,
        {
          amountCents: body.amount,
          method: body.method,
          receivedOn: new Date(`${body.receivedOn}T00:00:00Z`),
          reference: body.reference ?? "",
          secondPayment: body.secondPayment === true,
        },
        { actor: user, context: args.context },
      );
      if (!recorded.ok) {
        const errors = recorded.field ? [{ field: recorded.field, message: recorded.message }] : undefined;
        return problem(recorded.status, recorded.message, { errors });
      }
      return ok({ ...orderJson(recorded.order), paidInFull: recorded.paidInFull }, { status: 201 });
    });
  });
}

export const loader = (_args: LoaderFunctionArgs) => methodNotAllowed("POST");
