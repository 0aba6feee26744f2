/** The customer's trade terms form (an admin sets them on the customer's page); shared by server and browser. */
import { z } from "zod";
import { CURRENCIES } from "~/content/currencies";
import type { Currency } from "~/domain/money";
import { PAYMENT_TERMS } from "~/domain/order-states";
import { formatQuantity } from "~/format";
import { checkPeppolId, peppolIdFields } from "~/domain/peppol";
import { checkLeitwegCountry, leitwegIdFields } from "~/domain/leitweg";

const MAX_CREDIT_UNITS = 10_000_000;

/** Terms and the credit limit, typed in whole units of the company's currency (whole dollars, whole euros). */
export const accountTermsSchema = (currency: Currency) =>
  z.object({
    termsDays: z.preprocess(
      (value) => (typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value),
      z
        .number({ required_error: "Choose the payment terms", invalid_type_error: "Choose the payment terms" })
        .refine((days) => (PAYMENT_TERMS as readonly number[]).includes(days), "Choose the payment terms"),
    ),
    creditLimit: z
      .number({
        required_error: "Enter a credit limit (0 for none)",
        invalid_type_error: `Enter the limit in whole ${CURRENCIES[currency].units}`,
      })
      .int(`Enter the limit in whole ${CURRENCIES[currency].units}`)
      .min(0, "A credit limit cannot be negative")
      .max(
        MAX_CREDIT_UNITS,
        `A credit limit is at most ${CURRENCIES[currency].symbol}${formatQuantity(MAX_CREDIT_UNITS)}`,
      ),
  });

/** Staff set the currency the company buys in ("currency" intent), as an owner does before the first order. */
export { companyCurrencySchema } from "~/forms/company-forms";

/** Staff set a company's Peppol participant id (scheme and value); "peppol-remove" takes it off. */
export const companyPeppolSchema = peppolIdFields.extend({ intent: z.literal("peppol") }).superRefine(checkPeppolId);

/**
 * Staff set a German public buyer's Leitweg-ID (its e-invoices are then XRechnung); "leitweg-remove" takes
 * it off. A company whose country is not DE is refused at the field.
 */
export const companyLeitwegSchema = (country: string) =>
  leitwegIdFields.extend({ intent: z.literal("leitweg") }).superRefine(checkLeitwegCountry(country));
