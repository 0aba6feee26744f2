/** What the quote services share: who sees which quotes, and how a refusal comes back (by field). */
import { can } from "~/services/companies.server";
import type { AuditEvent } from "~/services/audit-trail.server";
import type { UserView } from "~/models/user.server";
import { getQuoteFor, listQuotesOf, type QuoteScope, type QuoteView } from "./model/quotes.server";

export type Context = AuditEvent["context"];
export type Staff = { id: string; email: string; name: string };

export type FieldErrors = Record<string, string[]>;
export type QuoteOutcome =
  { ok: true; quote: QuoteView } | { ok: false; status: 400 | 403 | 404 | 409; errors: FieldErrors };

export const refused = (status: 400 | 403 | 404 | 409, errors: FieldErrors) => ({ ok: false as const, status, errors });
/** A refusal of the whole form, said above it (Conform's form-level errors are under ""). */
export const whole = (status: 400 | 403 | 404 | 409, message: string) => refused(status, { "": [message] });

export const NOT_YOURS = "We could not find that quote in your account.";
export const ACCOUNTS_CANNOT_QUOTE =
  "Your role in the company is accounts: a buyer or an owner asks for quotes and accepts them.";

/** Whose quotes a customer sees: their own; an owner (or accounts, who pay) the company's. */
export function quoteScopeOf(user: Pick<UserView, "id" | "companyId" | "role" | "companyRole">): QuoteScope {
  return {
    id: user.id,
    companyId: user.companyId,
    seesCompany: can(user, "manage") || user.companyRole === "accounts",
  };
}

export const quoteForCustomer = (id: string, user: UserView) => getQuoteFor(id, quoteScopeOf(user));
export const quotesForCustomer = (user: UserView, page = 1) => listQuotesOf(quoteScopeOf(user), { page });
