/** A quote as the screens, mails, documents and webhooks read it (quote-schema.server.ts stores it). */
import type { Types } from "mongoose";
import { currencyOf, type Currency } from "~/domain/money";
import { formatOrderNumber } from "~/domain/order-number";
import {
  formatQuoteNumber,
  type QuoteMessage,
  type QuoteRequestLine,
  type QuoteStatus,
  type QuoteVersionView,
} from "~/domain/quotes";
import type { QuoteDoc } from "./quote-schema.server";

export type { QuoteMessage, QuotedLine, QuoteRequestLine, QuoteVersionView } from "~/domain/quotes";

export type QuoteView = {
  id: string;
  number: number;
  /** "Q-100012" */
  label: string;
  status: QuoteStatus;
  currency: Currency;
  userId: string;
  userEmail: string;
  userName: string;
  companyId: string | null;
  companyName: string | null;
  wantedBy: string | null;
  lines: QuoteRequestLine[];
  versions: QuoteVersionView[];
  /** The latest version, or null while none was sent. */
  current: QuoteVersionView | null;
  messages: QuoteMessage[];
  declineReason: string | null;
  orderId: string | null;
  /** "SO-100042" */
  orderNumber: string | null;
  acceptedVersion: number | null;
  acceptedAt: string | null;
  accepting: { orderId: string; version: number; since: string } | null;
  /** Since when it waits for the shop (requested or revision asked), else null. */
  waitingSince: string | null;
  createdAt: string;
  updatedAt: string;
};

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);
const idOf = (id: Types.ObjectId | null | undefined) => (id ? id.toString() : null);

export function toQuoteView(doc: QuoteDoc): QuoteView {
  const label = formatQuoteNumber(doc.number);
  const versions = (doc.versions ?? []).map((version): QuoteVersionView => ({
    version: version.version,
    label: formatQuoteNumber(doc.number, version.version),
    lines: version.lines.map((line) => ({
      partId: line.partId.toString(),
      partNumber: line.partNumber,
      productName: line.productName,
      quantity: line.quantity,
      unitPriceCents: line.unitPriceCents,
      listUnitPriceCents: line.listUnitPriceCents,
      leadTimeDays: line.leadTimeDays,
      belowFloor: Boolean(line.belowFloor),
    })),
    netCents: version.netCents,
    validUntilDay: version.validUntilDay,
    validUntil: version.validUntil.toISOString(),
    terms: version.terms ?? "",
    note: version.note ?? "",
    partialAllowed: Boolean(version.partialAllowed),
    sentAt: version.sentAt.toISOString(),
    sentByName: version.sentByName,
  }));
  return {
    id: doc._id.toString(),
    number: doc.number,
    label,
    status: doc.status,
    currency: currencyOf(doc.currency),
    userId: doc.userId.toString(),
    userEmail: doc.userEmail,
    userName: doc.userName,
    companyId: idOf(doc.companyId),
    companyName: doc.companyName ?? null,
    wantedBy: doc.wantedBy ?? null,
    lines: doc.lines.map((line) => ({
      partId: line.partId.toString(),
      partNumber: line.partNumber,
      productName: line.productName,
      quantity: line.quantity,
      targetUnitPriceCents: line.targetUnitPriceCents ?? null,
    })),
    versions,
    current: versions.at(-1) ?? null,
    messages: (doc.messages ?? []).map((message) => ({
      at: message.at.toISOString(),
      authorName: message.authorName,
      fromShop: message.fromShop,
      text: message.text,
      kind: message.kind as QuoteMessage["kind"],
    })),
    declineReason: doc.declineReason ?? null,
    orderId: idOf(doc.orderId),
    orderNumber: doc.orderNumber ? formatOrderNumber(doc.orderNumber) : null,
    acceptedVersion: doc.acceptedVersion ?? null,
    acceptedAt: iso(doc.acceptedAt),
    accepting: doc.accepting
      ? {
          orderId: doc.accepting.orderId.toString(),
          version: doc.accepting.version,
          since: doc.accepting.since.toISOString(),
        }
      : null,
    waitingSince: doc.status === "requested" || doc.status === "revision" ? iso(doc.waitingSince) : null,
    createdAt: doc.createdAt.toISOString(),
    updatedAt: doc.updatedAt.toISOString(),
  };
}
