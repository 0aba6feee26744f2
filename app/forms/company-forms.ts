/** The company screens' forms (members, invitations, limits), shared by the server and the browser. */
import { z } from "zod";
import { COMPANY_ROLES } from "~/domain/company-roles";
import { CURRENCY_CODES, type Currency } from "~/domain/money";
import { formatQuantity } from "~/format";
import { plainText } from "~/domain/plain-text";
import { emailSchema, nameSchema, passwordSchema } from "./account-schemas";

const MAX_LIMIT_DOLLARS = 10_000_000;
const objectId = z.string({ required_error: "Choose a member" }).regex(/^[a-f0-9]{24}$/i, "Choose a member");
const role = z.enum(COMPANY_ROLES, { errorMap: () => ({ message: "Choose a role" }) });

export const DECLINE_REASON_NEEDED = "Give the buyer a reason for declining";

/** The owner's words to the buyer: a note with an approval, the reason for a decline. */
const noteText = (label: string) =>
  plainText(
    z
      .string({ required_error: DECLINE_REASON_NEEDED })
      .trim()
      .max(300, `${label} is at most 300 characters`)
      .regex(/^[^<>]*$/, "Use plain text without < or >"),
    label,
  );

const orderId = z.string({ required_error: "Choose an order" }).regex(/^[a-f0-9]{24}$/i, "Choose an order");

/** An owner's approval of an order awaiting it, with an optional note for the buyer. */
export const approveSchema = z.object({
  intent: z.literal("approve"),
  order: orderId,
  note: noteText("A note").optional(),
});

/** An owner's decline: the buyer is told why, so the reason is required. */
export const declineSchema = z.object({
  reason: noteText("A reason").refine((reason) => reason.length > 0, DECLINE_REASON_NEEDED),
});

/** Whole dollars per order; empty for no limit. */
const limitDollars = z
  .number({ invalid_type_error: "Enter the limit in whole dollars" })
  .int("Enter the limit in whole dollars")
  .min(1, "A limit is at least $1 (leave it empty for none)")
  .max(MAX_LIMIT_DOLLARS, `A limit is at most $${formatQuantity(MAX_LIMIT_DOLLARS)}`)
  .optional();

/** The currency a company buys in, one of the shop's: staff set it on its record, an owner before its first order. */
export const companyCurrencySchema = z.object({
  intent: z.literal("currency"),
  currency: z.enum(CURRENCY_CODES as [Currency, ...Currency[]], {
    errorMap: () => ({ message: "Choose a currency from the list" }),
  }),
});

/** A buyer's limit can be set with the invitation; other roles have none. */
export const inviteSchema = z.object({ intent: z.literal("invite"), email: emailSchema, role, limit: limitDollars });

export const companyActionSchema = z.discriminatedUnion("intent", [
  inviteSchema,
  z.object({ intent: z.literal("role"), member: objectId, role }),
  z.object({
    intent: z.literal("limit"),
    member: objectId,
    limit: limitDollars,
  }),
  z.object({ intent: z.literal("remove"), member: objectId }),
  companyCurrencySchema,
  approveSchema,
  z.object({ intent: z.literal("decline"), order: orderId, note: declineSchema.shape.reason }),
  z.object({
    intent: z.literal("revoke"),
    invitation: z
      .string({ required_error: "Choose an invitation" })
      .regex(/^[A-Za-z0-9_-]{22}$/, "Choose an invitation"),
  }),
]);

/** Accepting while signed in (one button). */
export const acceptSchema = z.object({ intent: z.literal("accept") });

/** Accepting without an account: the new account's name and password (the address is the invited one). */
export const acceptNewAccountSchema = z.object({
  intent: z.literal("create"),
  name: nameSchema,
  password: passwordSchema,
});
