/**
 * How the API shows an order: every amount in the minor unit of the order's currency (the currency of
 * its sale) with that currency named beside it, times in ISO 8601 UTC.
 */
import { money as moneyIn } from "~/services/api.server";
import { formatInvoiceNumber } from "./model/invoice.server";
import type { OrderView } from "./model/view.server";

export function orderJson(order: OrderView) {
  const money = (amount: number) => moneyIn(amount, order.currency);
  return {
    id: order.id,
    number: order.number,
    state: order.state,
    currency: order.currency,
    paymentMethod: order.paymentMethod,
    poNumber: order.poNumber,
    lines: order.lines.map((line) => ({
      partNumber: line.partNumber,
      name: line.productName,
      quantity: line.quantity,
      unitPrice: money(line.unitPriceCents),
      ...(line.listUnitPriceCents && line.listUnitPriceCents > line.unitPriceCents
        ? { listUnitPrice: money(line.listUnitPriceCents) }
        : {}),
      lineTotal: money(line.lineTotalCents),
      backordered: line.backorderedQuantity,
      backorderExpectedOn: line.backorderExpectedOn,
      shipped: line.shippedQuantity,
    })),
    net: money(order.netCents),
    tax: money(order.taxCents),
    taxLines: order.taxLines.map((line) => ({
      label: line.label,
      rate: line.rate,
      base: money(line.baseCents),
      amount: money(line.amountCents),
      note: line.note,
    })),
    total: money(order.totalCents),
    paid: money(order.paidCents),
    balance: money(order.balanceCents),
    creditApplied: order.creditUses.map((use) => ({
      creditNote: use.noteNumber,
      amount: money(use.amountCents),
      appliedAt: use.at,
    })),
    address: order.address,
    deliveryAddress: order.deliveryAddress,
    phone: order.phone,
    createdAt: order.createdAt,
    holdUntil: order.state === "unpaid" ? order.holdUntil : null,
    invoicedAt: order.invoicedAt,
    dueAt: order.dueAt,
    paidAt: order.paidAt,
    payments: order.payments.map((payment) => ({
      id: payment.id,
      amount: money(payment.amountCents),
      method: payment.method,
      receivedOn: payment.receivedOn.slice(0, 10),
      reference: payment.reference || null,
      reversed: Boolean(payment.reversedAt),
    })),
    shippedAt: order.shippedAt,
    shipment: order.shipment,
    shipments: order.shipments.map((shipment) => ({
      id: shipment.id,
      number: shipment.number,
      carrier: shipment.carrier,
      trackingNumber: shipment.trackingNumber,
      shippedAt: shipment.shippedAt,
      lines: shipment.lines.map((line) => ({
        partNumber: line.partNumber,
        name: line.productName,
        quantity: line.quantity,
      })),
    })),
    invoiceNumber: order.invoiceNumber ? formatInvoiceNumber(order.invoiceNumber) : null,
    credited: money(order.creditedCents),
    refunded: money(order.refundedCents),
    creditNotes: order.creditNotes.map((note) => ({
      id: note.id,
      number: note.number,
      issuedAt: note.issuedAt,
      reason: note.reason,
      returnNumber: note.returnNumber,
      lines: note.lines.map((line) => ({
        partNumber: line.partNumber,
        name: line.productName,
        quantity: line.quantity,
        net: money(line.netCents),
      })),
      net: money(note.netCents),
      tax: money(note.taxCents),
      total: money(note.totalCents),
      refund: money(note.refundCents),
      applied: money(note.appliedCents),
      accountCredit: money(note.accountCreditCents),
      refundStatus: note.refund?.status ?? null,
      refundedAt: note.refund?.refundedAt ?? null,
      paidOutAt: note.payout?.paidAt ?? null,
    })),
    customer: { name: order.userName, email: order.userEmail, companyName: order.companyName },
  };
}
