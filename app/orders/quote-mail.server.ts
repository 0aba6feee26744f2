/**
 * The mail of the quote life cycle, written to the outbox with a key of the quote and its event (a
 * version sent is its own), so the sweep raising an event again never mails twice. None throws: each
 * returns whether its message is written, and on false the event stays noted on the quote.
 */
import { createElement } from "react";
import { logFailure } from "~/services/log.server";
import {
  QuoteAcceptedEmail,
  QuoteDeclinedEmail,
  QuoteExpiryEmail,
  QuoteRequestedEmail,
  QuoteSentEmail,
  QuotesWaitingEmail,
} from "~/emails/quotes";
import { quoteDocumentPath, quotePath, staffQuotePath } from "~/domain/quotes";
import { getUserById, listAdminRecipients } from "~/models/user.server";
import { queueEmail, shopUrl } from "~/services/email.server";
import type { QuoteEventKind } from "./model/quote-schema.server";
import type { QuoteView } from "./model/quotes.server";

async function safely(what: string, send: () => Promise<unknown>) {
  try {
    await send();
    return true;
  } catch (error) {
    logFailure(`Could not write the ${what} email to the outbox; the quote sweep will`, error);
    return false;
  }
}

/** To the buyer at their current address (quote mail is essential: it answers what they asked). */
async function mailBuyer(quote: QuoteView, key: string, subject: string, body: React.ReactElement) {
  const user = await getUserById(quote.userId);
  await queueEmail({ key, to: user?.email ?? quote.userEmail, subject, body });
}

async function mailStaff(key: string, subject: string, body: React.ReactElement) {
  const admins = await listAdminRecipients();
  if (!admins.length) return;
  await queueEmail({ key: `${key}:admins`, to: admins.map((admin) => admin.email).join(", "), subject, body });
}

const lastMessage = (quote: QuoteView, kind: string) =>
  [...quote.messages].reverse().find((message) => message.kind === kind)?.text ?? null;

/** The mail of one event of a quote. */
export function mailQuoteEvent(kind: QuoteEventKind, quote: QuoteView) {
  const buyerLinks = { shopUrl: shopUrl(), quoteUrl: shopUrl(quotePath(quote.id)) };
  const staffLinks = { shopUrl: shopUrl(), quoteUrl: shopUrl(staffQuotePath(quote.id)) };
  const key = `quote:${quote.id}:${kind}${kind === "sent" || kind === "revision" ? `:${quote.versions.length}` : ""}`;
  switch (kind) {
    case "requested":
    case "revision":
      return safely(`quote ${kind}`, () =>
        mailStaff(
          key,
          kind === "revision"
            ? `Revision asked: ${quote.label} from ${quote.companyName ?? quote.userName}`
            : `Quote request ${quote.label} from ${quote.companyName ?? quote.userName}`,
          createElement(QuoteRequestedEmail, {
            quote,
            revision: kind === "revision",
            message: lastMessage(quote, kind === "revision" ? "revision" : "request"),
            ...staffLinks,
          }),
        ),
      );
    case "sent":
      return safely("quote sent", () =>
        mailBuyer(
          quote,
          key,
          `Your PartsWorks quote ${quote.current!.label}`,
          createElement(QuoteSentEmail, {
            quote,
            documentUrl: shopUrl(quoteDocumentPath(quote.id, quote.current!.version)),
            ...buyerLinks,
          }),
        ),
      );
    case "declined":
      return safely("quote declined", () =>
        mailBuyer(
          quote,
          key,
          `Your PartsWorks quote request ${quote.label}`,
          createElement(QuoteDeclinedEmail, { quote, reason: quote.declineReason ?? "", ...buyerLinks }),
        ),
      );
    case "accepted":
      return safely("quote accepted", () =>
        mailStaff(
          key,
          `Quote ${quote.label} accepted: order ${quote.orderNumber ?? ""}`.trim(),
          createElement(QuoteAcceptedEmail, { quote, orderNumber: quote.orderNumber ?? "", ...staffLinks }),
        ),
      );
    case "expired":
      return safely("quote expired", () =>
        mailBuyer(
          quote,
          key,
          `Your PartsWorks quote ${quote.current?.label ?? quote.label} expired`,
          createElement(QuoteExpiryEmail, { quote, expired: true, ...buyerLinks }),
        ),
      );
  }
}

/** The buyer's reminder that a version runs out soon (once a version). */
export function mailExpiryReminder(quote: QuoteView) {
  return safely("quote expiry reminder", () =>
    mailBuyer(
      quote,
      `quote:${quote.id}:expiring:${quote.versions.length}`,
      `Your PartsWorks quote ${quote.current!.label} expires on ${quote.current!.validUntilDay}`,
      createElement(QuoteExpiryEmail, {
        quote,
        expired: false,
        shopUrl: shopUrl(),
        quoteUrl: shopUrl(quotePath(quote.id)),
      }),
    ),
  );
}

/** The staff's reminder of requests waiting more than a working day (one message for all of them). */
export function mailQuotesWaiting(quotes: QuoteView[], now = new Date()) {
  return safely("quotes waiting", () =>
    mailStaff(
      `quotes:waiting:${now.toISOString().slice(0, 13)}`,
      `${quotes.length} quote ${quotes.length === 1 ? "request waits" : "requests wait"} for an answer`,
      createElement(QuotesWaitingEmail, {
        quotes,
        shopUrl: shopUrl(),
        listUrl: shopUrl("/dashboard/manageQuotes?status=waiting"),
      }),
    ),
  );
}
