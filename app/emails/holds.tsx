import { formatCents, formatDateTime } from "~/format";
import { ActionLink, EmailLayout, Paragraph, SHOP_NAME } from "./email-layout";
import { OrderLink, orderName, type EmailOrder } from "./orders";

type Links = { shopUrl: string; orderUrl: string; payUrl: string };

/** Before an unpaid order's hold ends: pay by then, or the stock goes back. Essential (it is about their money and goods). */
export function HoldEndingEmail({ order, holdUntil, ...links }: Links & { order: EmailOrder; holdUntil: string }) {
  const total = formatCents(order.totalCents, { currency: order.currency });
  return (
    <EmailLayout
      preview={`Your ${SHOP_NAME} ${orderName(order)} is held until ${formatDateTime(holdUntil)}`}
      shopUrl={links.shopUrl}
    >
      <Paragraph>Hello {order.userName},</Paragraph>
      <Paragraph>
        We hold the stock of your unpaid {orderName(order)} ({total}) until {formatDateTime(holdUntil)}. If it is not
        paid by then, the order is cancelled and the stock goes back on sale.
      </Paragraph>
      <ActionLink href={links.payUrl}>Pay {total}</ActionLink>
      <Paragraph>
        Need more time? Reply to this email and we can hold it longer. <OrderLink order={order} href={links.orderUrl} />
      </Paragraph>
    </EmailLayout>
  );
}

/** The hold ended unpaid: the order is cancelled, nothing was charged. */
export function OrderExpiredEmail({ order, ...links }: Omit<Links, "payUrl"> & { order: EmailOrder }) {
  return (
    <EmailLayout preview={`Your unpaid ${SHOP_NAME} ${orderName(order)} is cancelled`} shopUrl={links.shopUrl}>
      <Paragraph>Hello {order.userName},</Paragraph>
      <Paragraph>
        Your {orderName(order)} was not paid in the time we hold stock for, so we cancelled it and put its stock back on
        sale. Nothing was charged.
      </Paragraph>
      <Paragraph>
        To order the same parts again, open the order and choose “Order again”:{" "}
        <OrderLink order={order} href={links.orderUrl} />
      </Paragraph>
    </EmailLayout>
  );
}
