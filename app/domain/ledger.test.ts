import { describe, expect, test } from "vitest";
import { balancesOf, entriesOfOrder, openItems, owedBothWays, type LedgerOrder } from "./ledger";

const order = (over: Partial<LedgerOrder> = {}): LedgerOrder => ({
  id: "o1",
  number: "SO-100001",
  companyId: "c1",
  userEmail: "casey@example.com",
  totalCents: 10_000,
  invoiceNumber: 7,
  invoicedAt: "2026-11-01T00:00:00.000Z",
  createdAt: "2026-11-01T00:00:00.000Z",
  paidAt: null,
  paidCents: 0,
  transactionId: null,
  payments: [],
  creditNotes: [],
  ...over,
});

const payment = (amountCents: number, reversedAt: string | null = null) => ({
  id: `p${amountCents}`,
  amountCents,
  method: "bank-transfer",
  receivedOn: "2026-11-05T00:00:00.000Z",
  reference: "BANK-1",
  recordedBy: "staff@example.com",
  reversedAt,
  reversedBy: reversedAt ? "staff@example.com" : null,
});

const note = (over: Partial<LedgerOrder["creditNotes"][number]> = {}) => ({
  id: "n1",
  number: "CN-000003",
  issuedAt: "2026-11-10T00:00:00.000Z",
  issuedBy: "staff@example.com",
  totalCents: 10_000,
  refundCents: 0,
  refund: null,
  payout: null,
  ...over,
});

const balance = (o: LedgerOrder) => balancesOf(entriesOfOrder(o)).get("USD") ?? 0;

describe("the entries an order implies", () => {
  test("nothing before the invoice: an unpaid card order owes nothing", () => {
    expect(entriesOfOrder(order({ invoiceNumber: null }))).toEqual([]);
  });

  test("an invoice on account is owed until paid by bank transfer", () => {
    expect(balance(order())).toBe(10_000);
    const paid = order({ payments: [payment(10_000)], paidCents: 10_000, paidAt: "2026-11-05T00:00:00.000Z" });
    expect(entriesOfOrder(paid).map((entry) => [entry.kind, entry.amountCents, entry.document])).toEqual([
      ["invoice", 10_000, "INV-000007"],
      ["payment", -10_000, "BANK-1"],
    ]);
    expect(balance(paid)).toBe(0);
  });

  test("a reversed payment is owed again, as an entry of its own that settles the payment", () => {
    const reversed = order({ payments: [payment(10_000, "2026-11-06T00:00:00.000Z")] });
    const entries = entriesOfOrder(reversed);
    expect(entries.at(-1)).toMatchObject({ kind: "payment-reversal", amountCents: 10_000, settles: "payment:p10000" });
    expect(balance(reversed)).toBe(10_000);
  });

  test("a card-paid order cancelled with its refund nets to nothing; until Stripe confirms, the shop owes it", () => {
    const paid = { transactionId: "pi_1", paidAt: "2026-11-02T00:00:00.000Z", paidCents: 10_000 };
    const pending = order({
      ...paid,
      creditNotes: [
        note({ refundCents: 10_000, refund: { id: null, status: "pending", refundedAt: null, failedAt: null } }),
      ],
    });
    expect(balance(pending)).toBe(-10_000);
    const refunded = order({
      ...paid,
      creditNotes: [
        note({
          refundCents: 10_000,
          refund: { id: "re_1", status: "succeeded", refundedAt: "2026-11-11T00:00:00.000Z", failedAt: null },
        }),
      ],
    });
    expect(entriesOfOrder(refunded).map((entry) => entry.kind)).toEqual([
      "invoice",
      "card-payment",
      "credit-note",
      "refund",
    ]);
    expect(balance(refunded)).toBe(0);
  });

  test("a bank-paid order credited is the customer's credit until it is paid out", () => {
    const paid = { payments: [payment(10_000)], paidCents: 10_000, paidAt: "2026-11-05T00:00:00.000Z" };
    expect(balance(order({ ...paid, creditNotes: [note()] }))).toBe(-10_000);
    const out = note({
      payout: { paidAt: "2026-11-12T00:00:00.000Z", amountCents: 10_000, reference: "OUT-1", by: "staff@example.com" },
    });
    expect(balance(order({ ...paid, creditNotes: [out] }))).toBe(0);
  });

  test("a credit note still being numbered is posted once it has its number; every key names its event once", () => {
    expect(entriesOfOrder(order({ creditNotes: [note({ number: "CN being numbered" })] })).map((e) => e.kind)).toEqual([
      "invoice",
    ]);
    const keys = entriesOfOrder(
      order({ payments: [payment(4_000, "2026-11-06T00:00:00.000Z"), payment(6_000)], creditNotes: [note()] }),
    ).map((e) => e.key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  test("balances are kept per currency", () => {
    const entries = [
      ...entriesOfOrder(order()),
      ...entriesOfOrder(order({ id: "o2", currency: "EUR", totalCents: 500 })),
    ];
    expect([...balancesOf(entries)]).toEqual([
      ["USD", 10_000],
      ["EUR", 500],
    ]);
  });
});

describe("open items: what each document still owes or holds", () => {
  test("a part-paid invoice owes the rest; a credit note's credit less its payout is held", () => {
    const paidPart = order({ payments: [payment(4_000)], paidCents: 4_000 });
    const credited = order({
      id: "o2",
      invoiceNumber: 8,
      payments: [payment(10_000)],
      paidCents: 10_000,
      paidAt: "2026-11-05T00:00:00.000Z",
      creditNotes: [
        note({ payout: { paidAt: "2026-11-12T00:00:00.000Z", amountCents: 2_500, reference: "PAY-1", by: null } }),
      ],
    });
    const entries = [...entriesOfOrder(paidPart), ...entriesOfOrder(credited)];
    const open = openItems(entries).map((item) => [item.document, item.openCents]);
    expect(open).toEqual([
      ["INV-000007", 6_000],
      ["INV-000008", 0],
      ["CN-000003", -7_500],
    ]);
    expect(owedBothWays(entries).get("USD")).toEqual({ owesCents: 6_000, owedCents: 7_500, balanceCents: -1_500 });
  });
});

test("a credit note first settles what its own invoice still owes; only the rest is credit", () => {
  const unpaid = order({ creditNotes: [note({ totalCents: 3_000 })] });
  expect(openItems(entriesOfOrder(unpaid)).map((item) => [item.document, item.openCents])).toEqual([
    ["INV-000007", 7_000],
    ["CN-000003", 0],
  ]);
});

test("credit taken off a later invoice moves from the credit note to the invoice; the balance does not change", () => {
  const credited = order({
    payments: [payment(10_000)],
    paidCents: 10_000,
    paidAt: "2026-11-05T00:00:00.000Z",
    creditNotes: [note({ totalCents: 4_000 })],
  });
  const later = order({
    id: "o2",
    invoiceNumber: 9,
    totalCents: 3_000,
    creditUses: [
      { id: "u1", noteId: "n1", noteNumber: "CN-000003", amountCents: 3_000, at: "2026-11-20T00:00:00.000Z", by: null },
    ],
  });
  const entries = [...entriesOfOrder(credited), ...entriesOfOrder(later)];
  expect(balancesOf(entries).get("USD")).toBe(-1_000);
  expect(openItems(entries).map((item) => [item.document, item.openCents])).toEqual([
    ["INV-000007", 0],
    ["INV-000009", 0],
    ["CN-000003", -1_000],
  ]);
});
