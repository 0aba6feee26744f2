import { Text } from "@react-email/text";
import { formatCents, formatQuantity } from "~/format";
import type { Currency } from "~/domain/money";
import { ActionLink, EmailLayout, Paragraph, SHOP_NAME, TextLink } from "./email-layout";

/** What a quote email shows of the quote (a subset of QuoteView). */
export type EmailQuote = {
  /** "Q-100012" */
  label: string;
  currency: Currency;
  userName: string;
  companyName: string | null;
  lines: { partNumber: string; productName: string; quantity: number }[];
  current: {
    label: string;
    netCents: number;
    validUntilDay: string;
    lines: {
      partNumber: string;
      productName: string;
      quantity: number;
      unitPriceCents: number;
      leadTimeDays: number;
    }[];
  } | null;
};

type Links = { shopUrl: string; quoteUrl: string };

function RequestedLines({ quote }: { quote: EmailQuote }) {
  return (
    <Text style={{ fontSize: "14px", lineHeight: "20px" }}>
      {quote.lines.map((line) => (
        <span key={line.partNumber}>
          {formatQuantity(line.quantity)} × {line.productName} ({line.partNumber})
          <br />
        </span>
      ))}
    </Text>
  );
}

/** To the shop's staff: a buyer asked for a quote, or for a revision of one. */
export function QuoteRequestedEmail({
  quote,
  revision,
  message,
  shopUrl,
  quoteUrl,
}: Links & { quote: EmailQuote; revision: boolean; message: string | null }) {
  const who = quote.companyName ? `${quote.userName} of ${quote.companyName}` : quote.userName;
  return (
    <EmailLayout preview={`${revision ? "Revision asked" : "Quote request"}: ${quote.label}`} shopUrl={shopUrl}>
      <Paragraph>
        {revision
          ? `${who} asked for a new version of ${quote.current?.label ?? quote.label}.`
          : `${who} asked for a quote (${quote.label}) of:`}
      </Paragraph>
      {revision ? null : <RequestedLines quote={quote} />}
      {message ? <Paragraph>Their message: “{message}”</Paragraph> : null}
      <ActionLink href={quoteUrl}>
        {revision ? "Revise" : "Price"} quote {quote.label}
      </ActionLink>
    </EmailLayout>
  );
}

/** To the buyer: a version is sent, with its prices, its validity and links to it and its document. */
export function QuoteSentEmail({
  quote,
  shopUrl,
  quoteUrl,
  documentUrl,
}: Links & { quote: EmailQuote; documentUrl: string }) {
  const current = quote.current!;
  return (
    <EmailLayout preview={`Your quote ${current.label}`} shopUrl={shopUrl}>
      <Paragraph>
        Hello {quote.userName}, here is our quote {current.label}, valid until {current.validUntilDay}:
      </Paragraph>
      <Text style={{ fontSize: "14px", lineHeight: "20px" }}>
        {current.lines.map((line) => (
          <span key={line.partNumber}>
            {formatQuantity(line.quantity)} × {line.productName} ({line.partNumber}) at{" "}
            {formatCents(line.unitPriceCents, { currency: quote.currency })} a unit, ships{" "}
            {line.leadTimeDays === 0 ? "from stock" : `in ${line.leadTimeDays} days`}
            <br />
          </span>
        ))}
      </Text>
      <Paragraph>Total before tax: {formatCents(current.netCents, { currency: quote.currency })}</Paragraph>
      <ActionLink href={quoteUrl}>Accept or ask for a revision</ActionLink>
      <Paragraph>
        The quotation to print or forward: <TextLink href={documentUrl}>quotation {current.label}</TextLink>
      </Paragraph>
    </EmailLayout>
  );
}

/** To the buyer: the shop declined the request, with its reason. */
export function QuoteDeclinedEmail({
  quote,
  reason,
  shopUrl,
  quoteUrl,
}: Links & { quote: EmailQuote; reason: string }) {
  return (
    <EmailLayout preview={`Your quote request ${quote.label}`} shopUrl={shopUrl}>
      <Paragraph>
        Hello {quote.userName}, we cannot quote your request {quote.label}: {reason}
      </Paragraph>
      <Paragraph>
        Read it in your account: <TextLink href={quoteUrl}>quote {quote.label}</TextLink>
      </Paragraph>
    </EmailLayout>
  );
}

/** To the shop's staff: a buyer accepted a quote and its order is placed. */
export function QuoteAcceptedEmail({
  quote,
  orderNumber,
  shopUrl,
  quoteUrl,
}: Links & { quote: EmailQuote; orderNumber: string }) {
  return (
    <EmailLayout preview={`Quote ${quote.current?.label ?? quote.label} accepted`} shopUrl={shopUrl}>
      <Paragraph>
        {quote.userName} accepted {quote.current?.label ?? quote.label}: order {orderNumber} is placed at the quoted
        prices.
      </Paragraph>
      <ActionLink href={quoteUrl}>Open quote {quote.label}</ActionLink>
    </EmailLayout>
  );
}

/** To the buyer: a quote runs out soon, or ran out. */
export function QuoteExpiryEmail({
  quote,
  expired,
  shopUrl,
  quoteUrl,
}: Links & { quote: EmailQuote; expired: boolean }) {
  const current = quote.current!;
  return (
    <EmailLayout preview={`${current.label} ${expired ? "expired" : "expires soon"}`} shopUrl={shopUrl}>
      <Paragraph>
        Hello {quote.userName},{" "}
        {expired
          ? `our quote ${current.label} expired on ${current.validUntilDay}. Ask us for a new one if you still need the parts.`
          : `our quote ${current.label} is valid until ${current.validUntilDay}. Accept it before then to order at its prices.`}
      </Paragraph>
      <ActionLink href={quoteUrl}>Open quote {quote.label}</ActionLink>
    </EmailLayout>
  );
}

/** To the shop's staff: quote requests waiting for an answer for more than a working day. */
export function QuotesWaitingEmail({
  quotes,
  shopUrl,
  listUrl,
}: {
  quotes: { label: string; userName: string; companyName: string | null }[];
  shopUrl: string;
  listUrl: string;
}) {
  return (
    <EmailLayout preview={`${quotes.length} quote requests wait for an answer`} shopUrl={shopUrl}>
      <Paragraph>These quote requests have waited for {SHOP_NAME}&apos;s answer for more than a working day:</Paragraph>
      <Text style={{ fontSize: "14px", lineHeight: "20px" }}>
        {quotes.map((quote) => (
          <span key={quote.label}>
            {quote.label}: {quote.companyName ?? quote.userName}
            <br />
          </span>
        ))}
      </Text>
      <ActionLink href={listUrl}>Answer them</ActionLink>
    </EmailLayout>
  );
}
