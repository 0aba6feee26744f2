import { describe, expect, test } from "vitest";
import { bankDetailsOf, bankDetailsSentence, isValidIban, payeeAccountOf } from "./bank-accounts";
import { CURRENCY_CODES } from "./money";

const labels = (currency: Parameters<typeof bankDetailsOf>[0]) => bankDetailsOf(currency).map((row) => row.label);

describe("the shop's bank account of a currency", () => {
  test("every currency the shop sells in has an account in the seller's name", () => {
    for (const currency of CURRENCY_CODES) {
      const details = bankDetailsOf(currency);
      expect(details.find((row) => row.label === "Account name")?.value, currency).toBe("PartsWorks Manufacturing LLC");
    }
  });

  test("dollars: the US account as before (routing and account number, SWIFT)", () => {
    expect(labels("USD")).toEqual(["Bank", "Account name", "Routing number", "Account number", "SWIFT"]);
    expect(bankDetailsSentence("USD")).toBe(
      "Bank: First Lakes Commercial Bank; account name: PartsWorks Manufacturing LLC; routing number: 072000326; " +
        "account number: 4401 2231 9087; SWIFT: FLCBUS33",
    );
    expect(bankDetailsOf()).toEqual(bankDetailsOf("USD"));
  });

  test("euros: a German IBAN and the BIC, no routing number", () => {
    expect(labels("EUR")).toEqual(["Bank", "Account name", "IBAN", "BIC"]);
    expect(bankDetailsSentence("EUR")).toContain("IBAN: DE29 5004 0000 0614 7283 00; BIC: COBADEFFXXX");
    expect(payeeAccountOf("EUR")).toEqual({
      id: "DE29500400000614728300",
      name: "PartsWorks Manufacturing LLC",
      bic: "COBADEFFXXX",
      sepa: true,
    });
  });

  test("pounds: sort code and account number, and the IBAN for payers abroad", () => {
    expect(labels("GBP")).toEqual(["Bank", "Account name", "Sort code", "Account number", "IBAN (from abroad)", "BIC"]);
    expect(bankDetailsSentence("GBP")).toContain("sort code: 20-32-53; account number: 73849215");
    // The IBAN holds the same sort code and account number.
    expect(payeeAccountOf("GBP").id).toBe("GB12BARC20325373849215");
    expect(payeeAccountOf("GBP").sepa).toBe(false);
    expect(payeeAccountOf("USD")).toMatchObject({ id: "440122319087", bic: "FLCBUS33", sepa: false });
  });

  test("every IBAN printed has valid check digits; a mistyped one does not", () => {
    for (const currency of ["EUR", "GBP"] as const) {
      const iban = bankDetailsOf(currency).find((row) => row.label.startsWith("IBAN"))!.value;
      expect(isValidIban(iban), iban).toBe(true);
    }
    expect(isValidIban("DE89 3704 0044 0532 0130 00")).toBe(true);
    expect(isValidIban("DE29 5004 0000 0614 7283 01")).toBe(false);
    expect(isValidIban("GB21 BARC 2032 5373 8492 15")).toBe(false);
    expect(isValidIban("4401 2231 9087")).toBe(false);
  });
});
