import { z } from "zod";
import { filterDay as day } from "./day";
import { CATEGORY_LABELS, type Category } from "./catalogue";
import { formatCents, formatNumber } from "~/format";
import { CURRENCIES } from "~/content/currencies";

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
  "order.approve",
  "order.decline",
  "user.unpaid-caps",
  "order.record-payment",
  "order.reverse-payment",
  "order.return-request",
  "order.return-approve",
  "order.return-decline",
  "order.return-receive",
  "order.credit-note",
  "order.cancel-paid",
  "order.refund",
  "order.payout",
  "order.apply-credit",
  "quote.request",
  "quote.send",
  "quote.floor-override",
  "quote.revision",
  "quote.decline",
  "quote.accept",
  "quote.expire",
  "user.set-terms",
  "user.set-pricing",
  "price-group.save",
  "price-group.delete",
  "signin.throttled",
  "signup.throttled",
  "password.reset",
  "mail.failed",
  "mail.resend",
  "webhook.create",
  "webhook.remove",
  "api-key.create",
  "api-key.revoke",
  "saved-list.create",
  "saved-list.share",
  "saved-list.delete",
  "company.invite",
  "company.join",
  "company.role",
  "company.remove",
  "company.suspend",
  "company.withdraw-invitation",
  "company.limit",
  "company.set-terms",
  "company.set-currency",
  "company.unpaid-caps",
  "company.set-peppol-id",
  "company.set-leitweg-id",
  "company.ask-payout",
  "exchange-rate.record",
  "exchange-rate.import",
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
  "order.approve": "An owner approved an order over a buyer's limit",
  "order.decline": "An owner declined an order over a buyer's limit",
  "user.unpaid-caps": "Set a customer's caps on unpaid orders",
  "order.record-payment": "Recorded a payment",
  "order.reverse-payment": "Reversed a payment",
  "order.return-request": "Asked to return parts",
  "order.return-approve": "Approved a return",
  "order.return-decline": "Declined a return",
  "order.return-receive": "Received a return",
  "order.credit-note": "Issued a credit note",
  "order.cancel-paid": "Cancelled a paid order",
  "order.refund": "Refund to the card",
  "order.payout": "Paid out an account credit",
  "quote.request": "Asked for a quote",
  "quote.send": "Sent a version of a quote",
  "quote.floor-override": "Quoted a part below its floor price",
  "quote.revision": "Asked for a revision of a quote",
  "quote.decline": "Declined a quote request",
  "quote.accept": "Accepted a quote (its order placed)",
  "quote.expire": "A quote expired",
  "order.apply-credit": "Applied account credit to an invoice",
  "user.set-terms": "Set payment terms",
  "user.set-pricing": "Set a customer's price group and tax details",
  "price-group.save": "Saved a price group",
  "price-group.delete": "Deleted a price group",
  "signin.throttled": "Sign-in refused by the throttle",
  "signup.throttled": "Sign-up refused by the throttle",
  "password.reset": "Password reset",
  "mail.failed": "An email could not be sent",
  "mail.resend": "Sent a failed email again",
  "webhook.create": "Added a webhook endpoint",
  "webhook.remove": "Removed a webhook endpoint",
  "api-key.create": "Created an API key",
  "api-key.revoke": "Revoked an API key",
  "saved-list.create": "Created a list shared with the company",
  "saved-list.share": "Shared a list with the company",
  "saved-list.delete": "Deleted a list shared with the company",
  "company.invite": "Invited someone to a company",
  "company.join": "Joined a company",
  "company.role": "Changed a member's role",
  "company.remove": "Removed a member from a company",
  "company.suspend": "Took out a member who joined through an unproved account's invitation",
  "company.withdraw-invitation": "Withdrew an invitation sent before the sender's address was proved",
  "company.limit": "Set a buyer's spending limit",
  "company.set-terms": "Set a company's payment terms and credit limit",
  "company.set-currency": "Set the currency a company buys in",
  "company.unpaid-caps": "Set a company's caps on unpaid orders",
  "company.set-peppol-id": "Set a company's Peppol participant id",
  "company.set-leitweg-id": "Set a German public buyer's Leitweg-ID (XRechnung)",
  "company.ask-payout": "A customer asked us to pay out what we owe them",
  "exchange-rate.record": "Recorded an exchange rate by hand",
  "exchange-rate.import": "Imported the ECB's exchange rates",
};

/** The words people say for the fields an entry records (the code's names stay in the database). */
export const AUDIT_FIELD_LABELS: Record<string, string> = {
  name: "Name",
  description: "Description",
  img: "Image",
  partNumber: "Part number",
  priceCents: "Price",
  availableQuantity: "Stock",
  minOrderQuantity: "Minimum order",
  lowStockThreshold: "Low-stock threshold",
  volumeBreaks: "Volume breaks",
  category: "Category",
  brand: "Brand",
  oeNumbers: "OE numbers",
  fitment: "Fits",
  role: "Role",
  status: "Status",
  sessions: "Sessions",
  companyRole: "Company role",
  spendingLimitCents: "Spending limit",
  email: "Email",
  amountCents: "Amount",
  balanceCents: "Balance",
  creditLimitCents: "Credit limit",
  currency: "Currency",
  termsDays: "Payment terms (days)",
  holdUntil: "Stock held until",
  method: "Method",
  scopes: "Scopes",
  apiKeys: "API keys",
  attempts: "Attempts",
  url: "Address",
  orders: "Orders",
  terms: "Payment terms",
  caps: "Caps",
  limit: "Limit",
  reason: "Reason",
  note: "Note",
  // A part's list in another currency (pricesEUR: "€11.00, breaks 500:-5%"), written in its currency.
  ...Object.fromEntries(
    Object.entries(CURRENCIES).map(([code, { plural }]) => [`prices${code}`, `Prices in ${plural}`]),
  ),
};

const ROLE_WORDS: Record<string, string> = { admin: "Admin", customer: "Customer" };
const COMPANY_ROLE_WORDS: Record<string, string> = { owner: "Owner", buyer: "Buyer", accounts: "Accounts" };

/** A field's label as people say it; a field without one is put in words from its name ("unpaidValueCents": "Unpaid value"). */
export function auditFieldLabel(key: string) {
  const known = AUDIT_FIELD_LABELS[key];
  if (known) return known;
  const words = key
    .replace(/Cents$/, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A recorded value as a person reads it: money formatted, counts grouped, words for codes. */
export function formatAuditValue(key: string, value: string | number | boolean | null) {
  if (value === null || value === "") return key === "lowStockThreshold" ? "Below the minimum order" : "None";
  if (key.endsWith("Cents") && typeof value === "number") return formatCents(value);
  if (typeof value === "number") return formatNumber(value);
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (key === "role") return ROLE_WORDS[value] ?? value;
  if (key === "companyRole") return COMPANY_ROLE_WORDS[value] ?? value;
  if (key === "category") return CATEGORY_LABELS[value as Category] ?? value;
  return value;
}

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
