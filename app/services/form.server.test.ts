import { describe, expect, test } from "vitest";
import { z } from "zod";
import { lineQuantity } from "~/forms/shop-forms";
import { recordPaymentSchema } from "~/forms/order-forms";
import { parseForm } from "./form.server";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
};

describe("parseForm", () => {
  const schema = z.object({ quantity: lineQuantity(100_000) });

  test.each(["0x10", "0b11", "1e2", "Infinity", "12abc"])("reads %s as no number: the field says so", (typed) => {
    const submission = parseForm(form({ quantity: typed }), { schema });
    expect(submission.status).toBe("error");
    expect(submission.reply().error?.quantity).toEqual(["Quantity must be a whole number"]);
  });

  test.each([
    ["100", 100],
    [" 250 ", 250],
    ["+3", 3],
  ])("reads %s as %d", (typed, value) => {
    const submission = parseForm(form({ quantity: typed }), { schema });
    expect(submission.status === "success" && submission.value.quantity).toBe(value);
  });

  test("a reply carries back only the schema's fields", () => {
    const reply = parseForm(form({ quantity: "x", injected: "<b>not ours</b>" }), { schema }).reply();
    expect(JSON.stringify(reply)).not.toContain("injected");
    expect(reply.initialValue).toEqual({ quantity: "x" });
  });

  test.each([
    ["banana", "Enter a real date such as 2026-01-31"],
    ["2026-02-30", "Enter a real date such as 2026-01-31"],
    ["2999-01-01", "The money cannot arrive in the future"],
    ["", "Enter the day the money arrived"],
  ])("a payment day of %j gets one message: %s", (receivedOn, message) => {
    const submission = parseForm(
      form({ intent: "record-payment", amount: "10", method: "bank-transfer", receivedOn }),
      { schema: recordPaymentSchema },
    );
    expect(submission.reply().error?.receivedOn).toEqual([message]);
  });
});
