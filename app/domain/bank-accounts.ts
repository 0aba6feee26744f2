/**
 * The shop's bank account for a currency (content/company.ts), as a payer reads it and as an
 * e-invoice carries it: an order is paid into the account of its currency, so a euro order names
 * the IBAN and a pound order the sort code, never the dollar account (decision record 11). Pure.
 */
import { company } from "~/content/company";
import { HOME_CURRENCY, type Currency } from "./money";

/** One line of the bank details: its label, its value, and whether a payer copies it (shown in a code font). */
export type BankDetail = { label: string; value: string; code: boolean };

export const bankAccountOf = (currency: Currency = HOME_CURRENCY) => company.banks[currency];

/**
 * The details a payer types into their bank, in the order a transfer form asks for them: the bank
 * and the account's name, then the account as the currency's payment system knows it.
 */
export function bankDetailsOf(currency: Currency = HOME_CURRENCY): BankDetail[] {
  const account = bankAccountOf(currency);
  const head = [
    { label: "Bank", value: account.bankName, code: false },
    { label: "Account name", value: account.accountName, code: false },
  ];
  if ("routingNumber" in account)
    return [
      ...head,
      { label: "Routing number", value: account.routingNumber, code: true },
      { label: "Account number", value: account.accountNumber, code: true },
      { label: "SWIFT", value: account.swift, code: true },
    ];
  if ("sortCode" in account)
    return [
      ...head,
      { label: "Sort code", value: account.sortCode, code: true },
      { label: "Account number", value: account.accountNumber, code: true },
      { label: "IBAN (from abroad)", value: account.iban, code: true },
      { label: "BIC", value: account.bic, code: true },
    ];
  return [
    ...head,
    { label: "IBAN", value: account.iban, code: true },
    { label: "BIC", value: account.bic, code: true },
  ];
}

/** The details in one sentence, for a plain-text mail: "Bank: …; account name: …; IBAN: …". */
export function bankDetailsSentence(currency: Currency = HOME_CURRENCY) {
  // "Account name" reads "account name" mid-sentence; "SWIFT" and "IBAN" stay as they are.
  const midSentence = (label: string) =>
    /^[A-Z][a-z]/.test(label) ? label.charAt(0).toLowerCase() + label.slice(1) : label;
  return bankDetailsOf(currency)
    .map(({ label, value }, index) => `${index ? midSentence(label) : label}: ${value}`)
    .join("; ");
}

/**
 * The account as an e-invoice's credit transfer names it (EN 16931 BG-17): the IBAN where the
 * account has one (BT-84) with its BIC (BT-86), else the account number with the bank's SWIFT code.
 * `sepa`: a euro IBAN, paid by SEPA credit transfer (UNTDID 4461 code 58) rather than any transfer (30).
 */
export function payeeAccountOf(currency: Currency = HOME_CURRENCY) {
  const account = bankAccountOf(currency);
  const compact = (value: string) => value.replace(/\s+/g, "");
  if ("iban" in account)
    return { id: compact(account.iban), name: account.accountName, bic: account.bic, sepa: currency === "EUR" };
  return { id: compact(account.accountNumber), name: account.accountName, bic: account.swift, sepa: false };
}

/** Whether `iban` is well formed and its check digits hold (ISO 13616: the number mod 97 is 1). */
export function isValidIban(iban: string) {
  const compact = iban.replace(/\s+/g, "").toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(compact)) return false;
  const digits = [...`${compact.slice(4)}${compact.slice(0, 4)}`]
    .map((char) => (/\d/.test(char) ? char : String(char.charCodeAt(0) - 55)))
    .join("");
  let rest = 0;
  for (const digit of digits) rest = (rest * 10 + Number(digit)) % 97;
  return rest === 1;
}
