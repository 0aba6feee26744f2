/** The company screens' forms (members, invitations, limits), shared by the server and the browser. */
import { z } from "zod";
import { COMPANY_ROLES } from "~/domain/company-roles";
import { formatQuantity } from "~/format";
import { plainText } from "~/domain/plain-text";
import { emailSchema, nameSchema, passwordSchema } from "./account-schemas";

const MAX_LIMIT_DOLLARS = 10_000_000;
const objectId = z.string({ required_error: "Choose a member" }).regex(/^[a-f0-9]{24}$/i, "Choose a member");
const role = z.enum(COMPANY_ROLES, { errorMap: () => ({ message: "Choose a role" }) });

/** An owner's decision on an order awaiting approval, with an optional note for the buyer. */
const decision = z.object({
  order: z.string({ required_error: "Choose an order" }).regex(/^[a-f0-9]{24}$/i, "Choose an order"),
  note: plainText(
    z
      .string()
      .trim()
      .max(300, "A note is at most 300 characters")
      .regex(/^[^<>]*$/, "Use plain text without < or >"),
    "A note",
  ).optional(),
});

/** Whole dollars per order; empty for no limit. */
const limitDollars = z
  .number({ invalid_type_error: "Enter the limit in whole dollars" })
  .int("Enter the limit in whole dollars")
  .min(1, "A limit is at least $1 (leave it empty for none)")
  .max(MAX_LIMIT_DOLLARS, `A limit is at most $${formatQuantity(MAX_LIMIT_DOLLARS)}`)
  .optional();

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
  decision.extend({ intent: z.literal("approve") }),
  decision.extend({ intent: z.literal("decline") }),
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
