import { Body } from "@react-email/body";
import { Container } from "@react-email/container";
import { Hr } from "@react-email/hr";
import { Html } from "@react-email/html";
import { Link } from "@react-email/link";
import { Preview } from "@react-email/preview";
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import type { ReactNode } from "react";

export const SHOP_NAME = "PartsWorks";

/** Every message's frame: the shop's name, a link back, and no images or tracking of any kind. */
export function EmailLayout({
  preview,
  shopUrl,
  children,
  unsubscribeUrl,
}: {
  preview: string;
  shopUrl: string;
  children: ReactNode;
  /** For non-essential mail: a link that turns this kind of mail off without signing in. */
  unsubscribeUrl?: string;
}) {
  return (
    <Html lang="en">
      {/* Our own head: a title, and every meta with its content (email clients read these as they are). */}
      <head>
        <meta httpEquiv="Content-Type" content="text/html; charset=UTF-8" />
        <meta name="x-apple-disable-message-reformatting" content="" />
        <title>{preview}</title>
      </head>
      <Body style={{ backgroundColor: "#f8fafc", fontFamily: "Arial, sans-serif", color: "#0f172a" }}>
        <Preview>{preview}</Preview>
        <Container style={{ backgroundColor: "#ffffff", padding: "24px", maxWidth: "560px" }}>
          <Text style={{ fontSize: "20px", fontWeight: "bold", margin: 0 }}>
            <Link href={shopUrl} style={{ color: "#1d4ed8" }}>
              {SHOP_NAME}
            </Link>
          </Text>
          <Section>{children}</Section>
          <Hr />
          <Text style={{ fontSize: "12px", color: "#475569" }}>
            {SHOP_NAME}, car parts made to order. <Link href={shopUrl}>{shopUrl}</Link>
          </Text>
          {unsubscribeUrl ? (
            <Text style={{ fontSize: "12px", color: "#475569" }}>
              Don&apos;t want these emails? Turn them off: <Link href={unsubscribeUrl}>Unsubscribe</Link>
            </Text>
          ) : null}
        </Container>
      </Body>
    </Html>
  );
}

export function Paragraph({ children }: { children: ReactNode }) {
  return <Text style={{ fontSize: "15px", lineHeight: "22px" }}>{children}</Text>;
}

/** An address written out as a link: clickable in the HTML part, the full URL in the plain-text part. */
export function UrlLink({ href }: { href: string }) {
  return (
    <Link href={href} style={{ color: "#1d4ed8", wordBreak: "break-all" }}>
      {href}
    </Link>
  );
}

/** A link shown as a button, with the address written out below for clients that hide buttons. */
export function ActionLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Section style={{ margin: "16px 0" }}>
      <Link
        href={href}
        style={{
          backgroundColor: "#1d4ed8",
          color: "#ffffff",
          padding: "10px 16px",
          borderRadius: "6px",
          display: "inline-block",
        }}
      >
        {children}
      </Link>
      <Text style={{ fontSize: "12px", color: "#475569", wordBreak: "break-all" }}>
        <UrlLink href={href} />
      </Text>
    </Section>
  );
}
