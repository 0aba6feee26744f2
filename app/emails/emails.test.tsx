import type { ReactElement } from "react";
import { describe, expect, test } from "vitest";
import { renderEmail } from "~/services/email.server";
import { byteProblems, checkHtml } from "../../tests/setup/vnu";
import * as account from "./account";
import * as company from "./company";
import * as holds from "./holds";
import * as orders from "./orders";
import type { EmailOrder } from "./orders";

/**
 * Every email the shop sends, rendered as it sends them (renderEmail), with text that puts
 * multi-byte characters everywhere: strict UTF-8 without NUL in both parts, and HTML that passes
 * the W3C Nu Html Checker. A new template without a line in MESSAGES fails the last test.
 */
const shopUrl = "http://localhost:3000/";
const name = "Zoë Müller-Łukasiewicz";
const invitationsEnded = {
  withdrawn: "2 pending invitations withdrawn: zoë@partsworks.test, łukasz@example.com",
  suspended: "1 member who joined through them suspended (taken out of the company and signed out): ørsted@example.com",
  credentials: "1 API key of theirs revoked, 1 webhook of theirs disabled",
};
const order: EmailOrder = {
  id: "6b0973146d36c00f4bd7a379",
  number: "SO-100042",
  lines: [
    {
      partNumber: "PW-1003",
      productName: "Iridium Spark Plug ×4 “Pro”",
      unitPriceCents: 1250,
      quantity: 1200,
      lineTotalCents: 1_500_000,
    },
    {
      partNumber: "PW-1005",
      productName: "Bremsscheibe Ø 300 mm…",
      unitPriceCents: 3900,
      quantity: 100,
      lineTotalCents: 390_000,
    },
  ],
  totalCents: 2_003_400,
  netCents: 1_890_000,
  taxLines: [{ label: "MI sales tax 6%", amountCents: 113_400, note: "Détroit ✓" }],
  totalQuantity: 1300,
  phone: "+1 313 555 0199",
  address: "Garage Ørsted\n48 Mill Road\nDetroit, MI 48209",
  userName: name,
  userEmail: "zoe@partsworks.test",
  transactionId: "pi_123",
  paidAt: "2026-11-20T10:00:00.000Z",
  poNumber: "PO-€-77",
  paymentMethod: "card",
  dueAt: null,
  payments: [{ amountCents: 50_000, method: "bank-transfer", receivedOn: "2026-11-21", reversedAt: null }],
  shipment: { carrier: "UPS", trackingNumber: "1Z999AA10123456784" },
};
const orderLinks = {
  shopUrl,
  orderUrl: `${shopUrl}dashboard/orders/${order.id}`,
  unsubscribeUrl: `${shopUrl}unsubscribe?token=x`,
};

const MESSAGES: Record<string, ReactElement> = {
  PasswordResetEmail: (
    <account.PasswordResetEmail name={name} resetUrl={`${shopUrl}reset-password?token=t`} shopUrl={shopUrl} />
  ),
  PasswordChangedEmail: (
    <account.PasswordChangedEmail
      name={name}
      forgotUrl={`${shopUrl}forgot-password`}
      shopUrl={shopUrl}
      ended="2 API keys and 1 webhook"
      invitations={invitationsEnded}
    />
  ),
  WelcomeEmail: <account.WelcomeEmail name={name} verifyUrl={`${shopUrl}verify-email?token=t`} shopUrl={shopUrl} />,
  VerifyEmail: <account.VerifyEmail name={name} verifyUrl={`${shopUrl}verify-email?token=t`} shopUrl={shopUrl} />,
  ChangeEmailEmail: (
    <account.ChangeEmailEmail
      name={name}
      confirmUrl={`${shopUrl}change-email?token=t`}
      newEmail="zoë@partsworks.test"
      shopUrl={shopUrl}
    />
  ),
  ApproveEmailChangeEmail: (
    <account.ApproveEmailChangeEmail
      name={name}
      approveUrl={`${shopUrl}change-email?token=t`}
      newEmail="zoë@partsworks.test"
      shopUrl={shopUrl}
    />
  ),
  AddressProvedEmail: (
    <account.AddressProvedEmail
      name={name}
      sessions={2}
      ended="1 API key and 1 webhook"
      forgotUrl={`${shopUrl}forgot-password`}
      shopUrl={shopUrl}
      invitations={invitationsEnded}
    />
  ),
  EmailChangedEmail: <account.EmailChangedEmail name={name} newEmail="zoë@partsworks.test" shopUrl={shopUrl} />,
  CompanyInvitationEmail: (
    <company.CompanyInvitationEmail
      inviter={name}
      inviterEmail="zoë@partsworks.test"
      companyName="Garage Ørsted & Søn"
      roleWords="a buyer"
      acceptUrl={`${shopUrl}invitations/t`}
      shopUrl={shopUrl}
      days={14}
    />
  ),
  RemovedFromCompanyEmail: (
    <company.RemovedFromCompanyEmail name={name} companyName="Garage Ørsted & Søn" shopUrl={shopUrl} />
  ),
  ApprovalNeededEmail: (
    <company.ApprovalNeededEmail
      ownerName={name}
      buyerName="Blaž Kovač"
      orderNumber={order.number}
      total="$2,003.40"
      limit="$1,500.00"
      holdUntil="29 Nov 2026, 10:00 UTC"
      approvalsUrl={`${shopUrl}dashboard/company#approvals`}
      shopUrl={shopUrl}
    />
  ),
  ApprovalExpiredEmail: (
    <company.ApprovalExpiredEmail
      ownerName={name}
      buyerName="Blaž Kovač"
      orderNumber={order.number}
      total="$2,003.40"
      shopUrl={shopUrl}
    />
  ),
  OrderDecidedEmail: (
    <company.OrderDecidedEmail
      name={name}
      orderNumber={order.number}
      approved={false}
      ownerName="Blaž Kovač"
      note="Zu teuer – nächste Woche…"
      orderUrl={orderLinks.orderUrl}
      shopUrl={shopUrl}
    />
  ),
  HoldEndingEmail: (
    <holds.HoldEndingEmail
      order={order}
      holdUntil="2026-11-29T10:00:00.000Z"
      payUrl={`${shopUrl}dashboard/payment/${order.id}`}
      {...orderLinks}
    />
  ),
  OrderExpiredEmail: <holds.OrderExpiredEmail order={order} {...orderLinks} />,
  OrderPlacedEmail: (
    <orders.OrderPlacedEmail order={order} payUrl={`${shopUrl}dashboard/payment/${order.id}`} {...orderLinks} />
  ),
  PaymentReceivedEmail: <orders.PaymentReceivedEmail order={order} {...orderLinks} />,
  OrderShippedEmail: <orders.OrderShippedEmail order={order} {...orderLinks} />,
  OrderEndedEmail: <orders.OrderEndedEmail order={order} by="customer" {...orderLinks} />,
  PaidOrderToShipEmail: (
    <orders.PaidOrderToShipEmail order={order} manageUrl={`${shopUrl}dashboard/manageOrders`} shopUrl={shopUrl} />
  ),
  LowStockEmail: (
    <orders.LowStockEmail
      part={{
        id: "p1",
        name: "Bremsscheibe Ø 300 mm…",
        partNumber: "PW-1005",
        availableQuantity: 40,
        minOrderQuantity: 100,
      }}
      editUrl={`${shopUrl}dashboard/manageProducts/p1/edit`}
      shopUrl={shopUrl}
    />
  ),
};

describe("every email the shop sends", () => {
  test("both parts are strict UTF-8 without a NUL byte, and the HTML is one HTML5 document", async () => {
    const problems: string[] = [];
    for (const [template, body] of Object.entries(MESSAGES)) {
      const { html, text } = await renderEmail(body);
      for (const [part, content] of [
        ["html", html],
        ["text", text],
      ]) {
        problems.push(
          ...byteProblems(Buffer.from(content, "utf8")).map((problem) => `${template} ${part}: ${problem}`),
        );
        if (content.includes("\uFFFD")) problems.push(`${template} ${part}: a replacement character`);
      }
      if (!html.startsWith("<!DOCTYPE html>")) problems.push(`${template}: ${html.slice(0, 40)}`);
      if (!["Zoë", "Ø"].some((word) => html.includes(word) && text.includes(word)))
        problems.push(`${template}: no accented word came through`);
    }
    expect(problems).toEqual([]);
  });

  test("the HTML passes the W3C Nu Html Checker with zero errors", async () => {
    const documents = await Promise.all(
      Object.entries(MESSAGES).map(async ([template, body]) => ({
        name: template,
        html: (await renderEmail(body)).html,
      })),
    );
    const results = await checkHtml(documents);
    const errors = [...results].flatMap(([template, messages]) => messages.map((m) => `${template}: ${m.message}`));
    expect(errors).toEqual([]);
  }, 60_000);

  test("every address the shop writes is a link in the HTML part and a full URL in the text part", async () => {
    const problems: string[] = [];
    for (const [template, body] of Object.entries(MESSAGES)) {
      const { html, text } = await renderEmail(body);
      const hrefs = new Set([...html.matchAll(/href="([^"]+)"/g)].map((match) => match[1].replace(/&amp;/g, "&")));
      // Every address written out in the HTML's text sits inside a link to itself.
      const written = [...html.replace(/<a\b[\s\S]*?<\/a>/g, "").matchAll(/https?:\/\/[^\s<"]+/g)].map((m) => m[0]);
      for (const url of written) problems.push(`${template}: ${url} is text, not a link`);
      for (const href of hrefs) {
        if (!href.startsWith(shopUrl) && !href.startsWith("https://"))
          problems.push(`${template}: ${href} is no full URL`);
        if (!text.includes(href)) problems.push(`${template}: the text part lacks ${href}`);
      }
    }
    expect(problems).toEqual([]);
  });

  test("every template has a line here", () => {
    const templates = [account, company, holds, orders].flatMap((module) =>
      Object.entries(module)
        .filter(([exported, value]) => exported.endsWith("Email") && typeof value === "function")
        .map(([exported]) => exported),
    );
    expect(templates.filter((template) => !(template in MESSAGES))).toEqual([]);
  });
});
