import { describe, expect, test } from "vitest";
import {
  ageingBucket,
  ageingOf,
  balanceCell,
  balanceHeadline,
  buildStatement,
  buildStatements,
  statementPeriodSchema,
  termsLine,
  type StatementEntry,
} from "./statement";

const entry = (over: Partial<StatementEntry> & Pick<StatementEntry, "key" | "amountCents">): StatementEntry => ({
  kind: "invoice",
  currency: "USD",
  at: "2026-01-10T10:00:00.000Z",
  orderId: "o1",
  document: "INV-000001",
  settles: null,
  ...over,
});

const invoice = (order: string, cents: number, at: string, number: string) =>
  entry({ key: `invoice:${order}`, amountCents: cents, at, orderId: order, document: number });

const payment = (order: string, cents: number, at: string) =>
  entry({
    key: `payment:${order}`,
    kind: "payment",
    amountCents: -cents,
    at,
    orderId: order,
    document: "BANK-1",
    settles: `invoice:${order}`,
  });

const due = new Map<string, string | null>([
  ["o1", "2026-02-09T10:00:00.000Z"],
  ["o2", "2026-03-01T10:00:00.000Z"],
]);

describe("the statement's words", () => {
  test("the headline says who owes whom, never with a minus", () => {
    expect(balanceHeadline(10_600)).toBe("You owe us $106.00");
    expect(balanceHeadline(-2_500)).toBe("We owe you $25.00");
    expect(balanceHeadline(0)).toBe("Nothing is owed either way");
    expect(balanceCell(-2_500)).toBe("$25.00 in credit");
    expect(balanceHeadline(-2_500)).not.toContain("−");
    expect(balanceHeadline(10_600, "EUR")).toBe("You owe us €106.00");
    expect(balanceHeadline(-2_500, "GBP")).toBe("We owe you £25.00");
    expect(balanceCell(-2_500, "EUR")).toBe("€25.00 in credit");
  });

  test("terms without net days say how orders are paid, and never 'card only' when cards are off", () => {
    expect(termsLine(30, false)).toBe("Net 30 days from the invoice date");
    expect(termsLine(0, false)).toBe("None: each order is paid by bank transfer before it ships");
    expect(termsLine(0, false)).not.toContain("card only");
    expect(termsLine(0, true)).toContain("by card or bank transfer");
  });
});

describe("the period filter", () => {
  test("takes whole days, either end optional, and refuses an end before the start next to it", () => {
    expect(statementPeriodSchema.safeParse({}).success).toBe(true);
    expect(statementPeriodSchema.safeParse({ from: "2026-01-01", to: "2026-01-31" }).success).toBe(true);
    const bad = statementPeriodSchema.safeParse({ from: "2026-13-45" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ path: ["from"], message: "Enter a date such as 2026-01-31" });
    expect(statementPeriodSchema.safeParse({ from: "2026-13-45", to: "2026-01-01" }).error?.issues).toHaveLength(1);
    const backwards = statementPeriodSchema.safeParse({ from: "2026-02-01", to: "2026-01-01" });
    expect(backwards.error?.issues[0]).toMatchObject({
      path: ["to"],
      message: "The end date must not be before the start date",
    });
  });
});

describe("opening, lines and closing", () => {
  const entries = [
    invoice("o1", 10_000, "2026-01-10T10:00:00.000Z", "INV-000001"),
    payment("o1", 4_000, "2026-01-20T10:00:00.000Z"),
    invoice("o2", 5_000, "2026-01-30T10:00:00.000Z", "INV-000002"),
    payment("o2", 5_000, "2026-02-05T10:00:00.000Z"),
  ];

  test("without a period: every entry, the running balance, closing what is owed", () => {
    const statement = buildStatement({ entries, dueAt: due, now: new Date("2026-02-10T00:00:00Z") });
    expect(statement.openingCents).toBe(0);
    expect(statement.lines.map((line) => line.balanceCents)).toEqual([10_000, 6_000, 11_000, 6_000]);
    expect(statement.lines[1]).toMatchObject({ description: "Payment received", chargeCents: 0, creditCents: 4_000 });
    expect(statement.closingCents).toBe(6_000);
    expect(statement.headline).toBe("You owe us $60.00");
    expect(statement.owesCents).toBe(6_000);
    expect(statement.owedCents).toBe(0);
  });

  test("a period brings the balance before it forward and stops at its last day (included)", () => {
    const statement = buildStatement({
      entries,
      period: { from: "2026-01-15", to: "2026-01-30" },
      dueAt: due,
      now: new Date("2026-06-01T00:00:00Z"),
    });
    expect(statement.openingCents).toBe(10_000);
    expect(statement.lines.map((line) => line.document)).toEqual(["BANK-1", "INV-000002"]);
    expect(statement.closingCents).toBe(11_000);
    // Aged at the period's end, not today.
    expect(statement.asOf).toBe("2026-01-31T00:00:00.000Z");
    expect(statement.ageing.current).toBe(11_000);
  });

  test("a paid invoice says Paid (never Pending); an open one says what is open and when it was due", () => {
    const statement = buildStatement({ entries, dueAt: due, now: new Date("2026-02-20T00:00:00Z") });
    const status = statement.lines.filter((line) => line.kind === "invoice").map((line) => line.status);
    expect(status).toEqual(["$60.00 open, overdue 10 days (due Feb 9, 2026)", "Paid"]);
    expect(status.join(" ")).not.toContain("Pending");
  });

  test("on one day the invoice comes before the card payment taken a moment before it was numbered", () => {
    const card = entry({
      key: "card-payment:o1",
      kind: "card-payment",
      amountCents: -10_000,
      at: "2026-01-10T09:59:59.000Z",
      document: "pi_1",
      settles: "invoice:o1",
    });
    const statement = buildStatement({ entries: [card, entries[0]], dueAt: due });
    expect(statement.lines.map((line) => [line.description, line.balanceCents])).toEqual([
      ["Invoice", 10_000],
      ["Card payment", 0],
    ]);
  });

  test("entries in another currency stay out of a USD statement", () => {
    const statement = buildStatement({
      entries: [...entries, entry({ key: "invoice:eur", amountCents: 900, currency: "EUR" })],
      dueAt: due,
    });
    expect(statement.lines).toHaveLength(4);
  });
});

describe("ageing", () => {
  test("buckets by days overdue at the edges", () => {
    expect([0, 1, 30, 31, 60, 61, 90, 91].map(ageingBucket)).toEqual([
      "current",
      "days1To30",
      "days1To30",
      "days31To60",
      "days31To60",
      "days61To90",
      "days61To90",
      "over90Days",
    ]);
  });

  test("each open invoice by its order's due date; one without terms is due when invoiced", () => {
    const entries = [
      invoice("o1", 10_000, "2026-01-10T10:00:00.000Z", "INV-000001"),
      payment("o1", 4_000, "2026-01-20T10:00:00.000Z"),
      invoice("o3", 2_000, "2026-01-01T10:00:00.000Z", "INV-000003"),
    ];
    const { buckets, invoices } = ageingOf(entries, due, new Date("2026-04-15T12:00:00Z"));
    // o1 due Feb 9: 65 days overdue; o3 (no terms) due Jan 1: 104 days.
    expect(buckets).toEqual({ current: 0, days1To30: 0, days31To60: 0, days61To90: 6_000, over90Days: 2_000 });
    expect(invoices.map((i) => [i.document, i.daysOverdue])).toEqual([
      ["INV-000003", 104],
      ["INV-000001", 65],
    ]);
  });

  test("credit is not aged: what the shop owes is told apart", () => {
    const entries = [
      invoice("o1", 10_000, "2026-01-10T10:00:00.000Z", "INV-000001"),
      payment("o1", 10_000, "2026-01-11T10:00:00.000Z"),
      entry({
        key: "credit-note:n1",
        kind: "credit-note",
        amountCents: -3_000,
        document: "CN-000004",
        at: "2026-01-12T10:00:00.000Z",
        settles: "invoice:o1",
      }),
    ];
    const statement = buildStatement({ entries, dueAt: due, now: new Date("2026-05-01T00:00:00Z") });
    expect(Object.values(statement.ageing).every((cents) => cents === 0)).toBe(true);
    expect(statement.owedCents).toBe(3_000);
    expect(statement.headline).toBe("We owe you $30.00");
  });
});

describe("credit applied to an invoice", () => {
  const entries = [
    invoice("o1", 10_000, "2026-01-10T10:00:00.000Z", "INV-000001"),
    invoice("o2", 5_000, "2026-01-11T10:00:00.000Z", "INV-000002"),
    entry({
      key: "credit-note:n1",
      kind: "credit-note",
      orderId: "o1",
      amountCents: -3_000,
      document: "CN-000007",
      at: "2026-01-12T10:00:00.000Z",
      settles: "invoice:o1",
    }),
    payment("o1", 10_000, "2026-01-13T10:00:00.000Z"),
    entry({
      key: "credit-applied:a1",
      kind: "credit-applied",
      orderId: "o2",
      amountCents: -3_000,
      document: "CN-000007",
      at: "2026-01-14T10:00:00.000Z",
      settles: "invoice:o2",
    }),
    entry({
      key: "credit-used:a1",
      kind: "credit-applied",
      orderId: "o2",
      amountCents: 3_000,
      document: "INV-000002",
      at: "2026-01-14T10:00:00.000Z",
      settles: "credit-note:n1",
    }),
  ];

  test("is one line 'Credit CN-… applied to INV-…' that changes no balance", () => {
    const statement = buildStatement({ entries, dueAt: due, now: new Date("2026-01-20T00:00:00Z") });
    const applied = statement.lines.filter((line) => line.kind === "credit-applied");
    expect(applied).toEqual([
      expect.objectContaining({
        description: "Credit CN-000007 applied to INV-000002",
        chargeCents: 0,
        creditCents: 0,
        balanceCents: 2_000,
      }),
    ]);
    expect(statement.lines).toHaveLength(5);
    expect(statement.closingCents).toBe(2_000);
    // The credit now settles the second invoice: $20 of it stays open, nothing is owed back.
    expect(statement.owesCents).toBe(2_000);
    expect(statement.owedCents).toBe(0);
  });

  test("half a pair (the other half not posted yet) is an ordinary line with its amount", () => {
    const statement = buildStatement({ entries: entries.slice(0, 5), dueAt: due, now: new Date("2026-01-20Z") });
    expect(statement.lines.at(-1)).toMatchObject({ description: "Credit applied", creditCents: 3_000 });
  });
});

describe("a statement a currency", () => {
  // A dollar invoice and a euro one of the same account, a euro credit note above its invoice.
  const entries = [
    invoice("o1", 10_000, "2026-01-10T10:00:00.000Z", "INV-000001"),
    entry({ ...invoice("o2", 7_000, "2026-01-12T10:00:00.000Z", "INV-000002"), currency: "EUR" }),
    entry({
      key: "credit-note:n1",
      kind: "credit-note",
      amountCents: -9_000,
      at: "2026-01-15T10:00:00.000Z",
      orderId: "o2",
      document: "CN-000001",
      currency: "EUR",
    }),
  ];
  const now = new Date("2026-01-20T00:00:00Z");

  test("each currency its own opening, lines, running and closing balance and ageing: never a sum", () => {
    const statements = buildStatements({ entries, currency: "EUR", dueAt: due, now });
    expect(statements.map((statement) => statement.currency)).toEqual(["EUR", "USD"]);
    const [euros, dollars] = statements;
    expect(euros.lines.map((line) => line.balanceCents)).toEqual([7_000, -2_000]);
    expect(euros).toMatchObject({ closingCents: -2_000, headline: "We owe you €20.00", owedCents: 9_000 });
    expect(euros.lines[0].status).toBe("€70.00 open, due Mar 1, 2026");
    expect(euros.ageing.current).toBe(7_000);
    expect(dollars.lines.map((line) => line.balanceCents)).toEqual([10_000]);
    expect(dollars).toMatchObject({ closingCents: 10_000, headline: "You owe us $100.00" });
    expect(dollars.ageing.current).toBe(10_000);
  });

  test("the account's own currency first; an account with nothing yet has one empty statement in it", () => {
    expect(buildStatements({ entries, dueAt: due, now }).map((statement) => statement.currency)).toEqual([
      "USD",
      "EUR",
    ]);
    expect(buildStatements({ entries: [entries[0]], currency: "GBP", dueAt: due, now })).toHaveLength(1);
    const empty = buildStatements({ entries: [], currency: "GBP", dueAt: due, now });
    expect(empty.map((statement) => [statement.currency, statement.headline])).toEqual([
      ["GBP", "Nothing is owed either way"],
    ]);
  });
});
