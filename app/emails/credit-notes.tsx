import { Text } from "@react-email/text";
import { settlementWords, type CreditNoteView } from "~/domain/credit-notes";
import type { Currency } from "~/domain/money";
import { formatCents, formatQuantity } from "~/format";
import { ActionLink, EmailLayout, Paragraph, SHOP_NAME } from "./email-layout";
import { OrderLink, orderName } from "./orders";

type Links = { shopUrl: string; orderUrl: string; creditNoteUrl: string };

export function creditNoteSubject(order: { number: string }, note: Pick<CreditNoteView, "number" | "reason">) {
  return note.reason === "cancellation"
    ? `We cancelled your ${SHOP_NAME} ${orderName(order)}: credit note ${note.number}`
    : `Credit note ${note.number} for your return (${orderName(order)})`;
}

/** A credit note was issued (essential: it is about their money): what was credited and how the money comes back. */
export function CreditNoteEmail({
  order,
  note,
  ...links
}: Links & {
  order: { number: string; userName: string; cancelReason?: string | null; currency?: Currency };
  note: CreditNoteView;
}) {
  // The credit is in the currency of the order it credits.
  const money = (cents: number) => formatCents(cents, { currency: order.currency });
  return (
    <EmailLayout preview={creditNoteSubject(order, note)} shopUrl={links.shopUrl}>
      <Paragraph>Hello {order.userName},</Paragraph>
      <Paragraph>
        {note.reason === "cancellation"
          ? `We cancelled your ${orderName(order)} before it shipped and credited it in full with credit note ${note.number}.`
          : `Thank you for returning the parts${note.returnNumber ? ` of ${note.returnNumber}` : ""}. We credited what arrived with credit note ${note.number}.`}
      </Paragraph>
      {note.reason === "cancellation" && order.cancelReason ? (
        <Paragraph>Why we cancelled it: {order.cancelReason}</Paragraph>
      ) : null}
      {note.lines.map((line, index) => (
        <Text key={index} style={{ fontSize: "14px", margin: "4px 0" }}>
          {formatQuantity(line.quantity)} × {line.productName}
          {line.partNumber ? ` (${line.partNumber})` : ""}: {money(line.netCents)}
        </Text>
      ))}
      {note.taxCents ? <Paragraph>Tax credited: {money(note.taxCents)}</Paragraph> : null}
      <Paragraph>
        Total credited: {money(note.totalCents)}.{" "}
        {settlementWords({ ...note, refundStatus: note.refund?.status ?? null }, order.currency)}
      </Paragraph>
      <ActionLink href={links.creditNoteUrl}>Open credit note {note.number}</ActionLink>
      <Paragraph>
        <OrderLink order={order} href={links.orderUrl} />
      </Paragraph>
    </EmailLayout>
  );
}
