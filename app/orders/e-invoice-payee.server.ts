/**
 * The credit transfer an e-invoice asks for (EN 16931 BG-16, BG-17): the shop's account in the
 * invoice's currency (domain/bank-accounts.ts), as the printed invoice names it. A euro invoice is
 * paid by SEPA credit transfer to the IBAN (UNTDID 4461 code 58, which XRechnung checks against the
 * IBAN); a pound invoice names its IBAN, which payers abroad use; a dollar invoice the US account.
 */
import type { Invoice } from "@e-invoice-eu/core";
import { payeeAccountOf } from "~/domain/bank-accounts";
import type { Currency } from "~/domain/money";

type PaymentMeans = NonNullable<Invoice["ubl:Invoice"]["cac:PaymentMeans"]>[number];

/** BG-16 for a transfer to the shop, quoting `reference` (BT-83: the order number people quote). */
export function bankTransferMeans(currency: Currency, reference: string) {
  const account = payeeAccountOf(currency);
  return {
    "cbc:PaymentMeansCode": account.sepa ? ("58" as const) : ("30" as const),
    "cbc:PaymentMeansCode@name": account.sepa ? "SEPA credit transfer" : "Credit transfer",
    "cbc:PaymentID": reference,
    "cac:PayeeFinancialAccount": {
      "cbc:ID": account.id,
      "cbc:Name": account.name,
      "cac:FinancialInstitutionBranch": { "cbc:ID": account.bic },
    },
  } satisfies PaymentMeans;
}
