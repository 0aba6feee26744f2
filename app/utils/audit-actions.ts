import { z } from "zod";

/** What the audit log records (shared by the model, the audit screen and its filter form). */
export const AUDIT_ACTIONS = [
  "user.make-admin",
  "user.demote",
  "user.sign-out-everywhere",
  "review.hide",
  "review.unhide",
  "review.delete",
  "part.add",
  "part.edit",
  "part.update",
  "part.delete",
  "order.ship",
  "order.remove",
  "order.expire",
  "order.extend-hold",
  "user.unpaid-caps",
  "order.record-payment",
  "order.reverse-payment",
  "user.set-terms",
  "signin.throttled",
  "signup.throttled",
  "password.reset",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  "user.make-admin": "Made an admin",
  "user.demote": "Removed an admin",
  "user.sign-out-everywhere": "Signed a user out everywhere",
  "review.hide": "Hid a review",
  "review.unhide": "Showed a hidden review again",
  "review.delete": "Deleted a review",
  "part.add": "Added a product",
  "part.edit": "Edited a product",
  "part.update": "Changed price or stock",
  "part.delete": "Deleted a product",
  "order.ship": "Shipped an order",
  "order.remove": "Removed an order",
  "order.expire": "An unpaid order expired",
  "order.extend-hold": "Held an unpaid order longer",
  "user.unpaid-caps": "Set a customer's caps on unpaid orders",
  "order.record-payment": "Recorded a payment",
  "order.reverse-payment": "Reversed a payment",
  "user.set-terms": "Set payment terms",
  "signin.throttled": "Sign-in refused by the throttle",
  "signup.throttled": "Sign-up refused by the throttle",
  "password.reset": "Password reset",
};

const day = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Enter a date such as 2026-01-31")
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), "Enter a date such as 2026-01-31");

/** The audit screen's filters (a GET form): every field optional, dates are whole UTC days. */
export const auditFilterSchema = z
  .object({
    action: z.enum(AUDIT_ACTIONS, { errorMap: () => ({ message: "Choose an action from the list" }) }).optional(),
    actor: z
      .string()
      .trim()
      .max(254, "Email is too long")
      .email("Enter an email address such as name@example.com")
      .optional(),
    from: day.optional(),
    to: day.optional(),
  })
  .refine((value) => !value.from || !value.to || value.from <= value.to, {
    path: ["to"],
    message: "The end date must not be before the start date",
  });
