import { Text } from "@react-email/text";
import { formatDay } from "~/domain/order-states";
import { formatQuantity } from "~/format";
import { describeShipment } from "~/domain/shipping";
import { ActionLink, EmailLayout, Paragraph, SHOP_NAME } from "./email-layout";
import { OrderLink, orderName } from "./orders";

type Links = { shopUrl: string; orderUrl: string };

type ParcelOrder = {
  number: string;
  userName: string;
  address: string;
  lines: {
    productName: string;
    partNumber: string;
    quantity: number;
    shippedQuantity: number;
    backorderedQuantity: number;
  }[];
};

export type EmailParcel = {
  number: number;
  carrier: string;
  trackingNumber: string | null;
  shippedAt: string;
  lines: { productName: string; partNumber: string; quantity: number }[];
};

/** One parcel of an order left (essential): what is in it, how to track it, and what is still to come. */
export function ParcelShippedEmail({ order, parcel, ...links }: Links & { order: ParcelOrder; parcel: EmailParcel }) {
  const shipment = describeShipment(parcel);
  const toCome = order.lines.filter((line) => line.shippedQuantity < line.quantity);
  return (
    <EmailLayout
      preview={`Parcel ${parcel.number} of your ${SHOP_NAME} ${orderName(order)} has shipped`}
      shopUrl={links.shopUrl}
    >
      <Paragraph>Hello {order.userName},</Paragraph>
      <Paragraph>
        Parcel {parcel.number} of your {orderName(order)} left on {formatDay(parcel.shippedAt)} for {order.address}.
      </Paragraph>
      {parcel.lines.map((line, index) => (
        <Text key={index} style={{ fontSize: "14px", margin: "4px 0" }}>
          {formatQuantity(line.quantity)} × {line.productName}
          {line.partNumber ? ` (${line.partNumber})` : ""}
        </Text>
      ))}
      {shipment ? <Paragraph>{shipment.text}.</Paragraph> : null}
      {shipment?.trackingUrl ? <ActionLink href={shipment.trackingUrl}>Track the parcel</ActionLink> : null}
      {toCome.length ? (
        <Paragraph>
          Still to come:{" "}
          {toCome
            .map(
              (line) =>
                `${formatQuantity(line.quantity - line.shippedQuantity)} × ${line.productName}${line.backorderedQuantity ? ` (${formatQuantity(line.backorderedQuantity)} on backorder)` : ""}`,
            )
            .join("; ")}
          .
        </Paragraph>
      ) : (
        <Paragraph>That completes your order.</Paragraph>
      )}
      <Paragraph>
        <OrderLink order={order} href={links.orderUrl} />
      </Paragraph>
    </EmailLayout>
  );
}

/** Stock arrived for units the customer had on backorder (essential: it changes when their goods come). */
export function BackorderAllocatedEmail({ order, ...links }: Links & { order: ParcelOrder }) {
  const waiting = order.lines.filter((line) => line.backorderedQuantity > 0);
  return (
    <EmailLayout preview={`Stock arrived for your ${SHOP_NAME} ${orderName(order)}`} shopUrl={links.shopUrl}>
      <Paragraph>Hello {order.userName},</Paragraph>
      <Paragraph>
        Stock arrived for units of your {orderName(order)} that were on backorder: they are set aside for you and ship
        with the next parcel.
      </Paragraph>
      {waiting.length ? (
        <Paragraph>
          Still on backorder:{" "}
          {waiting.map((line) => `${formatQuantity(line.backorderedQuantity)} × ${line.productName}`).join("; ")}.
        </Paragraph>
      ) : (
        <Paragraph>Nothing of the order is on backorder any more.</Paragraph>
      )}
      <Paragraph>
        <OrderLink order={order} href={links.orderUrl} />
      </Paragraph>
    </EmailLayout>
  );
}
