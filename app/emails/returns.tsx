import { Fragment } from "react";
import { Text } from "@react-email/text";
import { RETURN_CONDITION_WORDS, RETURN_REASON_WORDS, RETURNS_ADDRESS_LINES } from "~/domain/returns";
import type { ReturnView } from "~/domain/returns";
import { EmailLayout, Paragraph, SHOP_NAME, TextLink } from "./email-layout";
import { OrderLink, orderName } from "./orders";
import { formatQuantity } from "~/format";

/** `rmaUrl`: the RMA document (the label to print), once the return has its number. */
type Links = { shopUrl: string; orderUrl: string; rmaUrl?: string };

/** The subject of each step of a return, as the customer reads it. */
export function returnSubject(order: { number: string }, entry: Pick<ReturnView, "status" | "number">) {
  switch (entry.status) {
    case "requested":
      return `We have your return request for ${SHOP_NAME} ${orderName(order)}`;
    case "approved":
      return `Return ${entry.number} approved: how to send the parts back (${orderName(order)})`;
    case "declined":
      return `Your return request for ${orderName(order)} was declined`;
    case "received":
      return `Return ${entry.number} received (${orderName(order)})`;
  }
}

/** Each step of a return, to the customer (essential: it is about their goods and money). */
export function ReturnEmail({
  order,
  entry,
  ...links
}: Links & { order: { number: string; userName: string }; entry: ReturnView }) {
  return (
    <EmailLayout preview={returnSubject(order, entry)} shopUrl={links.shopUrl}>
      <Paragraph>Hello {order.userName},</Paragraph>
      {entry.status === "requested" ? (
        <Paragraph>
          We have your request to return these parts of your {orderName(order)} ({RETURN_REASON_WORDS[entry.reason]}).
          We will answer shortly; please do not send anything before we approve it.
        </Paragraph>
      ) : null}
      {entry.status === "approved" ? (
        <>
          <Paragraph>
            Your return is approved. Its number is {entry.number}. Pack the parts below, print the return label and
            stick it on the parcel (or write {entry.number} and {order.number} on a note inside), and send it to:
          </Paragraph>
          <Text style={{ fontSize: "15px", lineHeight: "22px", margin: "0 0 16px" }}>
            {RETURNS_ADDRESS_LINES.map((line, index) => (
              <Fragment key={line}>
                {index ? <br /> : null}
                {line}
              </Fragment>
            ))}
          </Text>
          {links.rmaUrl ? (
            <Paragraph>
              <TextLink href={links.rmaUrl}>Print the return label for {entry.number}</TextLink>
            </Paragraph>
          ) : null}
          <Paragraph>We credit what arrives once we have checked it.</Paragraph>
        </>
      ) : null}
      {entry.status === "declined" ? (
        <Paragraph>We cannot take these parts back{entry.declineReason ? `: ${entry.declineReason}` : "."}</Paragraph>
      ) : null}
      {entry.status === "received" ? <Paragraph>Your return {entry.number} arrived and was checked:</Paragraph> : null}
      {entry.lines.map((line, index) => (
        <Text key={index} style={{ fontSize: "14px", margin: "4px 0" }}>
          {formatQuantity(entry.status === "received" ? (line.receivedQuantity ?? 0) : line.quantity)} ×{" "}
          {line.productName}
          {line.partNumber ? ` (${line.partNumber})` : ""}
          {entry.status === "received" && line.condition
            ? `: ${RETURN_CONDITION_WORDS[line.condition].toLowerCase()}`
            : ""}
        </Text>
      ))}
      <Paragraph>
        <OrderLink order={order} href={links.orderUrl} />
      </Paragraph>
    </EmailLayout>
  );
}
