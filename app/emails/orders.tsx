import type { OrderPaymentMethod } from "~/domain/order-payments";
import { invoicedOnShipping } from "~/domain/tax";
import { Text } from "@react-email/text";
import { CURRENCIES } from "~/content/currencies";
import { bankDetailsSentence } from "~/domain/bank-accounts";
import { HOME_CURRENCY, type Currency } from "~/domain/money";
import { formatCents, formatQuantity } from "~/format";
import { PAYMENT_METHOD_WORDS, formatDay } from "~/domain/order-states";
import { describeShipment } from "~/domain/shipping";
import { ActionLink, EmailLayout, Paragraph, SHOP_NAME, TextLink } from "./email-layout";

/** What an order email shows of the order (a subset of OrderView). */
export type EmailOrder = {
  id: string;
  /** The order's number (SO-100042): its name in every email. */
  number: string;
  /** The currency of the sale: every amount below is in it (US dollars when not named). */
  currency?: Currency;
  lines: {
    partNumber: string;
    productName: string;
    unitPriceCents: number;
    quantity: number;
    lineTotalCents: number;
  }[];
  totalCents: number;
  /** Net and tax lines as placed (none on orders placed before tax lines were kept). */
  netCents?: number;
  taxLines?: { kind?: string; label: string; amountCents: number; note: string | null }[];
  totalQuantity: number;
  phone: string;
  address: string;
  userName: string;
  userEmail: string;
  transactionId: string | null;
  paidAt: string | null;
  /** The customer's purchase-order number, when they gave one. */
  poNumber?: string | null;
  paymentMethod?: OrderPaymentMethod;
  dueAt?: string | null;
  payments?: {
    amountCents: number;
    method: keyof typeof PAYMENT_METHOD_WORDS;
    receivedOn: string;
    reversedAt: string | null;
  }[];
  shipment?: { carrier: string; trackingNumber: string | null } | null;
  /** Account credit taken off the order (its credit notes). */
  creditUses?: { noteNumber: string; amountCents: number }[];
};

/** An amount of the order, in its currency: "€1,250.00". */
const moneyOf = (order: Pick<EmailOrder, "currency">) => (cents: number) =>
  formatCents(cents, { currency: order.currency });

/** What is left to pay once the account's credit came off the order. */
const toPayOf = (order: EmailOrder) =>
  Math.max(0, order.totalCents - (order.creditUses ?? []).reduce((sum, use) => sum + use.amountCents, 0));

/** "order SO-100042": how the emails name an order (its number, as every page shows it). */
export const orderName = (order: { number: string }) => `order ${order.number}`;

/** The link to an order's page, named by its number: "Open order SO-100042". */
export function OrderLink({ order, href }: { order: { number: string }; href: string }) {
  return <TextLink href={href}>Open {orderName(order)}</TextLink>;
}

/** How the money came: by card (with Stripe's transaction id), or the payments staff recorded. */
function HowPaid({ order }: { order: EmailOrder }) {
  const money = moneyOf(order);
  const recorded = (order.payments ?? []).filter((payment) => !payment.reversedAt);
  const credit = order.creditUses ?? [];
  if (!order.transactionId && !recorded.length && credit.length) {
    return <>Paid from your account&apos;s credit ({credit.map((use) => use.noteNumber).join(", ")}).</>;
  }
  if (order.transactionId || !recorded.length) {
    return <>Transaction id: {order.transactionId ?? "unknown"}.</>;
  }
  return (
    <>
      Received:{" "}
      {recorded
        .map(
          (p) =>
            `${money(p.amountCents)} by ${PAYMENT_METHOD_WORDS[p.method].toLowerCase()} on ${formatDay(p.receivedOn)}`,
        )
        .join("; ")}
      .
    </>
  );
}

/**
 * The lines, one per paragraph (readable as plain text too), then the total and the buyer's PO number
 * (the one place an email names it; the admins read it as the customer's).
 */
function OrderLines({ order, poLabel = "Your PO number" }: { order: EmailOrder; poLabel?: string }) {
  const money = moneyOf(order);
  return (
    <>
      {order.lines.map((line, index) => (
        <Text key={index} style={{ fontSize: "14px", margin: "4px 0" }}>
          {formatQuantity(line.quantity)} × {line.productName}
          {line.partNumber ? ` (${line.partNumber})` : ""} at {money(line.unitPriceCents)} each:{" "}
          {money(line.lineTotalCents)}
        </Text>
      ))}
      {order.taxLines?.length ? (
        <>
          <Text style={{ fontSize: "14px", margin: "8px 0 4px" }}>
            Net: {money(order.netCents ?? order.totalCents)}
          </Text>
          {order.taxLines.map((line, index) => (
            <Text key={`tax-${index}`} style={{ fontSize: "14px", margin: "4px 0" }}>
              {line.label}: {money(line.amountCents)}
              {line.note ? ` (${line.note})` : ""}
            </Text>
          ))}
        </>
      ) : null}
      <Text style={{ fontSize: "15px", fontWeight: "bold", margin: "8px 0" }}>
        Total{order.taxLines?.length ? " with tax" : ""}: {money(order.totalCents)} for{" "}
        {formatQuantity(order.totalQuantity)} units
      </Text>
      {order.creditUses?.length ? (
        <>
          {order.creditUses.map((use, index) => (
            <Text key={`credit-${index}`} style={{ fontSize: "14px", margin: "4px 0" }}>
              Credit applied {use.noteNumber}: − {money(use.amountCents)}
            </Text>
          ))}
          <Text style={{ fontSize: "15px", fontWeight: "bold", margin: "8px 0" }}>To pay: {money(toPayOf(order))}</Text>
        </>
      ) : null}
      {order.poNumber ? (
        <Paragraph>
          {poLabel}: {order.poNumber}
        </Paragraph>
      ) : null}
    </>
  );
}

function DeliverTo({ order }: { order: EmailOrder }) {
  return (
    <Paragraph>
      Deliver to: {order.address}. Phone: {order.phone}.
    </Paragraph>
  );
}

type Links = { shopUrl: string; orderUrl: string; unsubscribeUrl?: string };

/** Where to send a bank transfer (the shop's account in the order's currency), and the order number to quote. */
function BankTransfer({ order }: { order: EmailOrder }) {
  const currency = order.currency ?? HOME_CURRENCY;
  return (
    <Paragraph>
      Amount: {moneyOf(order)(toPayOf(order))} ({CURRENCIES[currency].plural}). Payment reference: {order.number}.{" "}
      {bankDetailsSentence(currency)}.
    </Paragraph>
  );
}

export function OrderPlacedEmail({ order, payUrl, ...links }: Links & { order: EmailOrder; payUrl: string }) {
  const money = moneyOf(order);
  return (
    <EmailLayout
      preview={`Your ${SHOP_NAME} ${orderName(order)} is placed`}
      shopUrl={links.shopUrl}
      unsubscribeUrl={links.unsubscribeUrl}
    >
      <Paragraph>Hello {order.userName},</Paragraph>
      {order.paymentMethod === "account" ? (
        <>
          <Paragraph>
            Thank you for your {orderName(order)}. It is confirmed on account: we start preparing it now, and the
            invoice is{" "}
            {invoicedOnShipping(order.taxLines ?? [])
              ? "issued when it ships (an intra-community supply), due on its terms from then"
              : `due ${order.dueAt ? formatDay(order.dueAt) : "on its terms"}`}
            .
          </Paragraph>
          <OrderLines order={order} />
          <DeliverTo order={order} />
        </>
      ) : order.paymentMethod === "bank-transfer" ? (
        <>
          <Paragraph>
            Thank you for your {orderName(order)}. We keep the stock for it while you pay by bank transfer, and ship
            once the money arrives.
          </Paragraph>
          <OrderLines order={order} />
          <DeliverTo order={order} />
          <BankTransfer order={order} />
          <Paragraph>The pro-forma invoice, with these details:</Paragraph>
          <ActionLink href={`${links.shopUrl.replace(/\/$/, "")}/documents/${order.id}/pro-forma/pdf`}>
            Pro-forma {order.number} (PDF)
          </ActionLink>
          <Paragraph>
            The order and how to pay it: <TextLink href={payUrl}>Pay {orderName(order)}</TextLink>
          </Paragraph>
        </>
      ) : (
        <>
          <Paragraph>
            Thank you for your {orderName(order)}. We keep the stock for it until you pay or cancel it.
          </Paragraph>
          <OrderLines order={order} />
          <DeliverTo order={order} />
          {order.paidAt ? (
            <Paragraph>Your account&apos;s credit paid it in full: we start preparing it now.</Paragraph>
          ) : (
            <>
              <Paragraph>Pay for it here, and we start preparing it:</Paragraph>
              <ActionLink href={payUrl}>Pay {money(toPayOf(order))}</ActionLink>
            </>
          )}
        </>
      )}
      <Paragraph>
        See the order at any time: <OrderLink order={order} href={links.orderUrl} />
      </Paragraph>
    </EmailLayout>
  );
}

export function PaymentReceivedEmail({ order, ...links }: Links & { order: EmailOrder }) {
  const money = moneyOf(order);
  return (
    <EmailLayout
      preview={`Receipt for your ${SHOP_NAME} ${orderName(order)}`}
      shopUrl={links.shopUrl}
      unsubscribeUrl={links.unsubscribeUrl}
    >
      <Paragraph>Hello {order.userName},</Paragraph>
      <Paragraph>We have received your payment for {orderName(order)}. This is your receipt.</Paragraph>
      <OrderLines order={order} />
      <Paragraph>
        Paid: {money(order.totalCents)}
        {order.paidAt ? ` on ${formatDay(order.paidAt)}` : ""}. <HowPaid order={order} />
      </Paragraph>
      <DeliverTo order={order} />
      <Paragraph>We will write again when it ships.</Paragraph>
      <Paragraph>
        <OrderLink order={order} href={links.orderUrl} />
      </Paragraph>
    </EmailLayout>
  );
}

/** Essential: always sent, whatever the customer's email settings. */
export function OrderShippedEmail({ order, ...links }: Links & { order: EmailOrder }) {
  return (
    <EmailLayout preview={`Your ${SHOP_NAME} ${orderName(order)} has shipped`} shopUrl={links.shopUrl}>
      <Paragraph>Hello {order.userName},</Paragraph>
      <Paragraph>
        Your {orderName(order)} has shipped to {order.address}.
      </Paragraph>
      <Shipment order={order} />
      <OrderLines order={order} />
      <Paragraph>
        <OrderLink order={order} href={links.orderUrl} />
      </Paragraph>
    </EmailLayout>
  );
}

export function OrderEndedEmail({
  order,
  by,
  reason = null,
  ...links
}: Links & { order: EmailOrder; by: "customer" | "shop"; reason?: string | null }) {
  return (
    <EmailLayout
      preview={`Your ${SHOP_NAME} ${orderName(order)} is cancelled`}
      shopUrl={links.shopUrl}
      unsubscribeUrl={links.unsubscribeUrl}
    >
      <Paragraph>Hello {order.userName},</Paragraph>
      <Paragraph>
        {by === "customer"
          ? `You cancelled your ${orderName(order)}. Nothing was charged.`
          : `We removed your unpaid ${orderName(order)}. Nothing was charged; reply to this email if you have a question.`}
      </Paragraph>
      {reason ? <Paragraph>Why we removed it: {reason}</Paragraph> : null}
      <OrderLines order={order} />
      <Paragraph>
        <OrderLink order={order} href={links.orderUrl} />
      </Paragraph>
    </EmailLayout>
  );
}

// --- To the shop's admins ------------------------------------------------------------------------

export function PaidOrderToShipEmail({
  order,
  manageUrl,
  shopUrl,
}: {
  order: EmailOrder;
  manageUrl: string;
  shopUrl: string;
}) {
  const money = moneyOf(order);
  return (
    <EmailLayout preview={`Paid ${orderName(order)} to ship`} shopUrl={shopUrl}>
      <Paragraph>
        {order.userName} ({order.userEmail}) paid {orderName(order)}: {money(order.totalCents)}.{" "}
        <HowPaid order={order} /> It is ready to ship.
      </Paragraph>
      <OrderLines order={order} poLabel="Customer’s PO number" />
      <DeliverTo order={order} />
      <ActionLink href={manageUrl}>Open the paid orders</ActionLink>
    </EmailLayout>
  );
}

/** The carrier and tracking number (with its tracking page), or collected by the customer. */
function Shipment({ order }: { order: EmailOrder }) {
  const shipment = describeShipment(order.shipment ?? null);
  if (!shipment) return null;
  return (
    <>
      <Paragraph>{shipment.text}.</Paragraph>
      {shipment.trackingUrl ? <ActionLink href={shipment.trackingUrl}>Track the parcel</ActionLink> : null}
    </>
  );
}

export type EmailPart = {
  id: string;
  name: string;
  partNumber: string;
  availableQuantity: number;
  minOrderQuantity: number;
};

export function LowStockEmail({ part, editUrl, shopUrl }: { part: EmailPart; editUrl: string; shopUrl: string }) {
  return (
    <EmailLayout preview={`Low stock: ${part.name}`} shopUrl={shopUrl}>
      <Paragraph>
        The stock of {part.name} ({part.partNumber}) fell to {formatQuantity(part.availableQuantity)} units, below its
        minimum order of {formatQuantity(part.minOrderQuantity)}: customers cannot order it until it is restocked.
      </Paragraph>
      <ActionLink href={editUrl}>Restock {part.partNumber}</ActionLink>
    </EmailLayout>
  );
}
