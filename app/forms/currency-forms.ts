/** The visitor's choice of the currency prices are shown in (the footer's picker). */
import { z } from "zod";
import { CURRENCY_CODES } from "~/domain/money";

export const displayCurrencySchema = z.object({
  currency: z.enum(CURRENCY_CODES as [string, ...string[]], {
    errorMap: () => ({ message: "Choose a currency from the list" }),
  }),
  redirectTo: z.string().max(2048).optional(),
});
