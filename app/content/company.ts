import type { CURRENCIES } from "./currencies";

/**
 * The shop's bank accounts, one a currency (the keys are `CURRENCIES`' codes): dollars at its US
 * bank (ACH routing and account number), euros in the SEPA area (IBAN and BIC), pounds in the UK
 * (sort code and account number, and the IBAN for payers abroad). Every one is in the seller's name.
 */
const banks = {
  USD: {
    bankName: "First Lakes Commercial Bank",
    accountName: "PartsWorks Manufacturing LLC",
    routingNumber: "072000326",
    accountNumber: "4401 2231 9087",
    swift: "FLCBUS33",
  },
  EUR: {
    bankName: "Commerzbank AG, Frankfurt am Main",
    accountName: "PartsWorks Manufacturing LLC",
    iban: "DE29 5004 0000 0614 7283 00",
    bic: "COBADEFFXXX",
  },
  GBP: {
    bankName: "Barclays Bank UK PLC, London",
    accountName: "PartsWorks Manufacturing LLC",
    sortCode: "20-32-53",
    accountNumber: "73849215",
    iban: "GB12 BARC 2032 5373 8492 15",
    bic: "BARCGB22",
  },
} as const satisfies Record<
  keyof typeof CURRENCIES,
  Record<string, string> & { bankName: string; accountName: string }
>;

/**
 * The company's public contact details, shown in Contact Us on the home page, its legal details
 * printed on invoices, pro-formas and packing slips, and where returned parts are sent.
 */
export const company = {
  name: "PartsWorks Manufacturing",
  /** The seller named on invoices. */
  legalName: "PartsWorks Manufacturing LLC",
  /** The seller's tax number (US Employer Identification Number), printed on invoices. */
  taxId: "EIN 38-4417290",
  /**
   * The seller's Peppol participant id (scheme 9944: its Dutch VAT registration, the one on its EU
   * invoices): the sender of every e-invoice addressed to a buyer's Peppol id (domain/peppol.ts).
   */
  peppol: { scheme: "9944", id: "NL859324710B01" },
  /**
   * Where a trade buyer sends a bank transfer, an account in each currency the shop sells in: the
   * pay screen, pro-formas, invoices, their e-invoices and the order mail show the one of the
   * order's currency (domain/bank-accounts.ts).
   */
  banks,
  /** The dollar account: what the statement of account (in US dollars) prints. */
  bank: banks.USD,
  address: {
    street: "1200 Woodward Avenue",
    city: "Detroit",
    region: "MI",
    postalCode: "48226",
    country: "USA",
  },
  /**
   * Where returned parts go (the warehouse's receiving dock), as a postal address with fields
   * (domain/address.ts prints it): the approval mail, the order page and the RMA document read it.
   */
  returnsAddress: {
    name: "PartsWorks Returns",
    company: "",
    line1: "200 Industrial Way",
    line2: "Dock 4",
    city: "Detroit",
    region: "MI",
    postalCode: "48209",
    country: "US",
  },
  email: "sales@partsworks.com",
  /** The seller's contact point named on e-invoices (BT-41; XRechnung requires it), reached at `email` and `phone`. */
  invoiceContact: "PartsWorks accounts receivable",
  phone: { display: "+1 (313) 555-0142", href: "tel:+13135550142" },
  hours: "Monday to Saturday, 7:00 to 19:00",
  map: {
    embed:
      "https://www.openstreetmap.org/export/embed.html?bbox=-83.0565%2C42.3290%2C-83.0425%2C42.3370&layer=mapnik&marker=42.3330%2C-83.0495",
    link: "https://www.openstreetmap.org/?mlat=42.3330&mlon=-83.0495#map=17/42.3330/-83.0495",
  },
  social: [
    { network: "Facebook", url: "https://www.facebook.com/partsworks" },
    { network: "X", url: "https://x.com/partsworks" },
    { network: "LinkedIn", url: "https://www.linkedin.com/company/partsworks" },
    { network: "YouTube", url: "https://www.youtube.com/@partsworks" },
    { network: "Instagram", url: "https://www.instagram.com/partsworks" },
  ],
  brands: [
    { name: "Apex Motors", logo: "/images/brands/apex-motors.svg" },
    { name: "Ironhorse", logo: "/images/brands/ironhorse.svg" },
    { name: "Nordwerk", logo: "/images/brands/nordwerk.svg" },
    { name: "Rallye", logo: "/images/brands/rallye.svg" },
    { name: "Sakura Auto", logo: "/images/brands/sakura-auto.svg" },
  ],
} as const;

export type SocialNetwork = (typeof company.social)[number]["network"];
