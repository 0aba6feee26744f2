/**
 * Staff's reason for cancelling an order (a paid one, with its credit note) or removing an unpaid one:
 * required on the screens, optional in the API, kept on the order and shown to its customer on the order
 * page and in the mail. Shared by the server and the browser.
 */
import { z } from "zod";
import { plainText } from "~/domain/plain-text";
import { manageOrdersSchema } from "./shop-forms";

export const CANCEL_REASON_MIN = 3;
export const CANCEL_REASON_MAX = 300;
export const CANCEL_REASON_LABEL = "Reason (the customer reads it)";

/** The reason field: 3 to 300 characters of plain text on one line. */
export const cancelReason = plainText(
  z
    .string({ required_error: "Say why the order is cancelled", invalid_type_error: "The reason is text" })
    .trim()
    .min(CANCEL_REASON_MIN, `Say why the order is cancelled, in at least ${CANCEL_REASON_MIN} characters`)
    .max(CANCEL_REASON_MAX, `A reason is at most ${CANCEL_REASON_MAX} characters`),
  "A reason",
);

/** Staff remove an unpaid order (the Manage Orders modal and the confirmation page): which, and why. */
export const removeOrderSchema = manageOrdersSchema.extend({ reason: cancelReason });
