/**
 * The forms of a return: the customer's request, and staff's decision and receipt. Shared by the
 * server and the browser; the units each line may return are checked on the server.
 */
import { z } from "zod";
import { MAX_LINE_QUANTITY, MAX_ORDER_LINES } from "~/domain/order-lines";
import { MAX_DECLINE_REASON, MAX_RETURN_NOTE, RETURN_CONDITIONS, RETURN_REASONS } from "~/domain/returns";
import { formatQuantity } from "~/format";
import { plainText } from "~/domain/plain-text";

/** Units of one line: none (0) up to what the server allows. */
const returnQuantity = z
  .number({ required_error: "Enter the units (0 for none)", invalid_type_error: "Units are a whole number" })
  .int("Units are a whole number")
  .min(0, "Units cannot be negative")
  .max(MAX_LINE_QUANTITY, `Units must be at most ${formatQuantity(MAX_LINE_QUANTITY)}`);

const lines = z
  .array(z.object({ quantity: returnQuantity }))
  .min(1)
  .max(MAX_ORDER_LINES);

export const requestReturnSchema = z.object({
  lines,
  reason: z.enum(RETURN_REASONS, {
    errorMap: () => ({
      message: "Choose why the parts go back: wrong part ordered, wrong part sent, damaged or warranty",
    }),
  }),
  note: plainText(
    z
      .string({ invalid_type_error: "A note is text" })
      .trim()
      .max(MAX_RETURN_NOTE, `A note is at most ${formatQuantity(MAX_RETURN_NOTE)} characters`),
    "A note",
    { multiline: true },
  ).optional(),
});

export const approveReturnSchema = z.object({ intent: z.literal("approve") });

export const declineReturnSchema = z.object({
  intent: z.literal("decline"),
  reason: plainText(
    z
      .string({ required_error: "Say why the return is declined" })
      .trim()
      .min(3, "Say why the return is declined")
      .max(MAX_DECLINE_REASON, `A reason is at most ${MAX_DECLINE_REASON} characters`),
    "A reason",
  ),
});

/** Staff's receipt: per line of the return, the units that came back and what they were found in. */
export const receiveReturnSchema = z.object({
  intent: z.literal("receive"),
  lines: z
    .array(
      z.object({
        quantity: returnQuantity,
        condition: z.enum(RETURN_CONDITIONS, {
          errorMap: () => ({ message: "Choose good (back to stock), inspect or scrapped" }),
        }),
      }),
    )
    .min(1)
    .max(MAX_ORDER_LINES),
});

/** Staff's forms on a return, by their intent. */
export function returnDecisionSchema(intent: FormDataEntryValue | null) {
  if (intent === "decline") return declineReturnSchema;
  if (intent === "receive") return receiveReturnSchema;
  return approveReturnSchema;
}
