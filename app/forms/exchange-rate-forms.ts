/** The Exchange Rates screen's forms: a rate typed by hand, and the ECB's file uploaded. */
import { z } from "zod";
import { parseRate, RATE_CURRENCIES } from "~/domain/exchange-rates";
import { isCalendarDay } from "./order-forms";

/** The ECB's first reference rates are of 4 January 1999. */
export const FIRST_ECB_DAY = "1999-01-04";

const today = () => new Date().toISOString().slice(0, 10);

export const addRateSchema = z.object({
  intent: z.literal("add"),
  day: z
    .string({ required_error: "Enter the rate's date" })
    .trim()
    .refine(isCalendarDay, "Enter a date such as 2026-11-27")
    .refine((day) => day >= FIRST_ECB_DAY, "The ECB's reference rates begin on 1999-01-04")
    .refine((day) => day <= today(), "The date cannot be in the future"),
  currency: z.enum(RATE_CURRENCIES, { errorMap: () => ({ message: "Choose a currency from the list" }) }),
  rate: z
    .string({ required_error: "Enter the rate: how much of the currency 1 euro buys" })
    .trim()
    .refine(
      (text) => parseRate(text) !== null,
      "Enter a rate above 0 with at most 6 decimals and a point, such as 1.0921",
    ),
});

export const importRatesSchema = z.object({
  intent: z.literal("import"),
  file: z
    .instanceof(File, { message: "Choose the ECB's .xml or .csv file" })
    .refine((file) => file.size > 0, "The file is empty."),
});

export const exchangeRatesSchema = z.discriminatedUnion("intent", [addRateSchema, importRatesSchema]);
