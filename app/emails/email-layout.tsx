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

/**
 * Long words and addresses break where they must, so no line is wider than a phone (360 px):
 * `word-break: break-word` for the clients that read it, `overflow-wrap` for the standard ones.
 */
const WRAP_ANYWHERE = { wordBreak: "break-word", overflowWrap: "anywhere" } as const;

const LINK_STYLE = { color: "#1d4ed8", textDecorationLine: "underline" } as const;

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
      <Body style={{ backgroundColor: "#f8fafc", fontFamily: "Arial, sans-serif", color: "#0f172a", ...WRAP_ANYWHERE }}>
        <Preview>{preview}</Preview>
        <Container
          style={{
            backgroundColor: "#ffffff",
            padding: "16px",
            maxWidth: "560px",
            tableLayout: "fixed",
            ...WRAP_ANYWHERE,
          }}
        >
          <Text style={{ fontSize: "20px", fontWeight: "bold", margin: 0 }}>
            <Link href={shopUrl} style={LINK_STYLE}>
              {SHOP_NAME}
            </Link>
          </Text>
          <Section style={{ tableLayout: "fixed" }}>{children}</Section>
          <Hr />
          <Text style={{ fontSize: "12px", color: "#475569" }}>
            {SHOP_NAME}, car parts made to order: <TextLink href={shopUrl}>visit the shop</TextLink>
          </Text>
          {unsubscribeUrl ? (
            <Text style={{ fontSize: "12px", color: "#475569" }}>
              Don&apos;t want these emails? Turn them off: <TextLink href={unsubscribeUrl}>Unsubscribe</TextLink>
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

/** A link with words for its text ("Open order SO-100042"); the plain-text part writes the address after them. */
export function TextLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link href={href} style={LINK_STYLE}>
      {children}
    </Link>
  );
}

/** An address written out as a link, broken anywhere to fit a phone's width. */
export function UrlLink({ href }: { href: string }) {
  return (
    <Link href={href} style={{ ...LINK_STYLE, wordBreak: "break-all" }}>
      {href}
    </Link>
  );
}

/**
 * A link shown as a button, with the address written out below (to read where it leads, or to copy
 * it). The plain-text part writes the address once, after the button's words.
 */
export function ActionLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Section style={{ margin: "16px 0", tableLayout: "fixed" }}>
      <Link
        href={href}
        style={{
          backgroundColor: "#1d4ed8",
          color: "#ffffff",
          padding: "10px 16px",
          borderRadius: "6px",
          display: "inline-block",
          maxWidth: "100%",
          boxSizing: "border-box",
        }}
      >
        {children}
      </Link>
      <Text style={{ fontSize: "12px", color: "#475569" }} data-skip-in-text="true">
        <UrlLink href={href} />
      </Text>
    </Section>
  );
}
