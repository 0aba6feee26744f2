/**
 * The kinds of invoice the shop issues, as orders in the database ready to print: the cases the
 * e-invoice tests check with the standard's rules and with the third-party validators.
 */
import { TAX_WORDING } from "~/content/tax-rates";
import { writeRates } from "~/models/exchange-rate.server";
import { Order } from "~/orders/model/schema.server";
import { createPart, createUser, updateCompanyOf } from "./factories";
import { createOrder } from "./order-factories";

export type Customer = { id: string; email: string; name: string };
export type Company = {
  companyName: string;
  taxId: string;
  country: string;
  billingAddress: string;
  /** The billing address field by field, as the company form stores it (none: the text only). */
  billing?: Record<string, string>;
  peppol?: { scheme: string; id: string };
};

export const GERMAN: Company = {
  companyName: "Nordwerk Fahrzeugteile GmbH",
  taxId: "DE811907980",
  // Its Peppol participant id: its invoices and credit notes claim Peppol BIS Billing 3.0.
  peppol: { scheme: "9930", id: "DE811907980" },
  country: "DE",
  billingAddress: "Industriestraße 114\n70565 Stuttgart\nGermany",
  billing: {
    name: "",
    company: "Nordwerk Fahrzeugteile GmbH",
    line1: "Industriestraße 114",
    line2: "Tor 3",
    city: "Stuttgart",
    region: "",
    postalCode: "70565",
    country: "DE",
  },
};
export const MICHIGAN: Company = {
  companyName: "Lakeside Fleet Repair Inc",
  taxId: "",
  country: "US",
  billingAddress: "88 Dock Road\nDetroit, MI 48209",
  billing: {
    name: "",
    company: "Lakeside Fleet Repair Inc",
    line1: "88 Dock Road",
    line2: "",
    city: "Detroit",
    region: "MI",
    postalCode: "48209",
    country: "US",
  },
};
/** A Dutch business without a VAT number on file, its address kept as text from before addresses had fields. */
export const DUTCH: Company = {
  companyName: "Van Dijk Onderdelen BV",
  taxId: "",
  country: "NL",
  billingAddress: "Havenweg 3\n3011 Rotterdam",
};

/** A Swiss business: its goods are exported. */
export const SWISS: Company = {
  companyName: "Garage Alpina AG",
  taxId: "",
  country: "CH",
  billingAddress: "Bahnhofstrasse 12\n8001 Zürich",
  billing: {
    name: "",
    company: "Garage Alpina AG",
    line1: "Bahnhofstrasse 12",
    line2: "",
    city: "Zürich",
    region: "",
    postalCode: "8001",
    country: "CH",
  },
};

/** A two-line order of `customer`'s company, written with the tax and payment fields the case needs. */
export async function invoicedOrder(
  customer: Customer,
  company: Company,
  set: Record<string, unknown>,
  status: "paid" | "account" | "shipped" = "paid",
) {
  const { billing, ...fields } = company;
  await updateCompanyOf(customer.id, billing ? { $set: company } : { $set: fields, $unset: { billing: "" } });
  const bracket = {
    ...(await createPart({ priceCents: 1_250, name: "Brake caliper bracket" })),
    partNumber: "BC-2201",
  };
  const core = { ...(await createPart({ priceCents: 4_999, name: "Radiator core" })), partNumber: "RC-7710" };
  const order = await createOrder({
    user: customer,
    status,
    poNumber: "PO-77-ALPHA",
    lines: [
      { part: bracket, quantity: 100 },
      { part: core, quantity: 120 },
    ],
  });
  await Order.updateOne({ _id: order.id }, { $set: { netCents: order.totalCents, invoicedAt: new Date(), ...set } });
  return order;
}

export const NET = 100 * 1_250 + 120 * 4_999; // $7,248.80
export const MI_TAX = Math.round(NET * 0.06); // $434.93
export const NL_VAT_CENTS = Math.round(NET * 0.21);

export const salesTax = (amountCents: number) => ({
  taxCents: amountCents,
  totalCents: NET + amountCents,
  taxLines: [{ kind: "sales-tax", label: "MI sales tax 6%", rate: 6, baseCents: NET, amountCents, note: null }],
});
export const onAccount = (paidCents = 0) => ({
  paymentMethod: "account",
  termsDays: 30,
  dueAt: new Date(Date.now() + 30 * 86_400_000),
  paidCents,
});

/**
 * One invoiced order of each kind, by name: paid by card with Michigan sales tax, placed by card and
 * paid by bank transfer, on account, paid in part by transfer, goods to an EU business in another
 * member state (an intra-community supply, shipped), an export, EU VAT charged, and exempt (a US buyer
 * without any tax id).
 */
export async function invoiceCases() {
  const customer = (name: string) => createUser({ role: "customer", name });
  const cases: Record<string, string> = {};
  cases.card = (
    await invoicedOrder(await customer("Carla Card"), MICHIGAN, { ...salesTax(MI_TAX), paidCents: NET + MI_TAX })
  ).id;
  // Placed to pay by card, paid by bank transfer instead: the payment means is the transfer, not the card.
  cases["card-paid-by-transfer"] = (
    await invoicedOrder(await customer("Sven Switch"), MICHIGAN, {
      ...salesTax(MI_TAX),
      paidCents: NET + MI_TAX,
      transactionId: null,
      payments: [
        {
          amountCents: NET + MI_TAX,
          method: "bank-transfer",
          receivedOn: new Date(),
          reference: "SWITCH-1",
          recordedBy: "staff@example.com",
          recordedAt: new Date(),
        },
      ],
    })
  ).id;
  cases.account = (
    await invoicedOrder(await customer("Arno Account"), MICHIGAN, { ...salesTax(MI_TAX), ...onAccount() }, "account")
  ).id;
  // Paid in part by bank transfer: the rest is due to the bank account, with the order number as reference.
  cases.transfer = (
    await invoicedOrder(
      await customer("Tara Transfer"),
      MICHIGAN,
      { ...salesTax(MI_TAX), ...onAccount(300_000) },
      "account",
    )
  ).id;
  // Goods to an EU business in another member state, on account: an intra-community supply, invoiced when it
  // shipped, sold in euros (BT-5 EUR; its amounts are euro cents, its bank account the euro one).
  cases["intra-community"] = (
    await invoicedOrder(
      await customer("Katharina Vogel"),
      GERMAN,
      {
        currency: "EUR",
        totalCents: NET,
        taxCents: 0,
        buyerVatNumber: "DE811907980",
        taxLines: [
          {
            kind: "intra-community",
            label: "Intra-community supply",
            rate: 0,
            baseCents: NET,
            amountCents: 0,
            note: TAX_WORDING.intraCommunity,
          },
        ],
        ...onAccount(),
        paidAt: null,
        transactionId: null,
      },
      "shipped",
    )
  ).id;
  // Goods leaving the EU (a Swiss garage): an export, exempt, with the seller's EU VAT number.
  cases.export = (
    await invoicedOrder(await customer("Urs Export"), SWISS, {
      totalCents: NET,
      taxCents: 0,
      paidCents: NET,
      taxLines: [
        { kind: "export", label: "No tax (export)", rate: 0, baseCents: NET, amountCents: 0, note: TAX_WORDING.export },
      ],
    })
  ).id;
  // EU VAT is also stated in euros at the ECB's rate of the invoice's day: the rate is on file.
  await writeRates(
    [{ day: new Date().toISOString().slice(0, 10), currency: "USD", rateMicros: 1_084_500 }],
    "ecb-file",
    "staff@example.com",
  );
  cases["eu-vat"] = (
    await invoicedOrder(await customer("Daan Dutch"), DUTCH, {
      totalCents: NET + NL_VAT_CENTS,
      taxCents: NL_VAT_CENTS,
      paidCents: NET + NL_VAT_CENTS,
      taxLines: [{ kind: "vat", label: "VAT NL 21%", rate: 21, baseCents: NET, amountCents: NL_VAT_CENTS, note: null }],
    })
  ).id;
  // Exempt with a resale certificate: a US buyer without any tax id.
  cases.exempt = (
    await invoicedOrder(
      await customer("Eli Exempt"),
      { ...MICHIGAN, country: "" },
      {
        totalCents: NET,
        taxCents: 0,
        paidCents: NET,
        taxLines: [
          {
            kind: "exempt",
            label: "Tax exempt",
            rate: 0,
            baseCents: NET,
            amountCents: 0,
            note: TAX_WORDING.exempt("MI-RS-4471"),
          },
        ],
      },
    )
  ).id;
  return cases;
}
