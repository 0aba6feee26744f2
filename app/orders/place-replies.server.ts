/**
 * An order not placed, told in the two ways the shop answers: a form's reply (the screens that place
 * orders: cart, quick order, part page) and problem+json (the API). Each says the payment's refusal
 * by its field, a refusal of the whole order above the form, and each line's problem where its
 * caller shows lines.
 */
import type { SubmissionResult } from "@conform-to/react";
import { problem } from "~/services/api.server";
import type { LineFailure, Refusal } from "./checkout-order.server";

type Errors = { formErrors?: string[]; fieldErrors?: Record<string, string[]> };

/** The part of a Conform submission that answers. */
type Replying = { reply: (options: Errors) => SubmissionResult<string[]> };

/** The reply and status for a form; `lines` says where the screen shows the lines that could not be ordered. */
export function notPlacedReply(submission: Replying, placed: Refusal, lines: (failures: LineFailure[]) => Errors) {
  if (placed.payment)
    return {
      result: submission.reply({ fieldErrors: { payment: [placed.payment.message] } }),
      status: placed.payment.status,
    };
  if (placed.refusal) return { result: submission.reply({ formErrors: [placed.refusal] }), status: 409 as const };
  return { result: submission.reply(lines(placed.failures)), status: 409 as const };
}

/**
 * The API's problem: a payment refused (409 past the credit limit, else 422, by the `payment` field),
 * the order refused (409), or each line by its place in the request (409 when stock was taken, else 422).
 */
export function notPlacedProblem(placed: Refusal, partNumberAt: (index: number) => string | undefined) {
  if (placed.payment)
    return problem(placed.payment.status === 409 ? 409 : 422, placed.payment.message, {
      errors: [{ field: "payment", message: placed.payment.message }],
    });
  if (placed.refusal) return problem(409, placed.refusal);
  // The line's place in the request (merged lines keep their first place); a part with no price in
  // the buyer's currency is wrong by its number, whatever the quantity.
  const errors = placed.failures.map((failure) => ({
    field: `lines.${failure.index}.${failure.reason === "no-price" ? "partNumber" : "quantity"}`,
    message: `${failure.partNumber ?? partNumberAt(failure.index)}: ${failure.message}`,
  }));
  const stockRace = placed.failures.some((failure) => failure.reason === "above-stock");
  return problem(stockRace ? 409 : 422, "Some lines cannot be ordered: see errors.", { errors });
}
