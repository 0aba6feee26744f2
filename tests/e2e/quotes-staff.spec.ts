/**
 * Staff answer a quote request: found on Shop Today and in Quotes filtered by "waiting"; a price below
 * the floor is refused at its field until the override is ticked (audited), a validity in the past is
 * refused; version 1 is sent, a revision asked, version 2 sent with a new price; another request is
 * declined, which asks for a reason first. JavaScript on and off.
 */
import { Part } from "~/models/part.server";
import { getUserById } from "~/models/user.server";
import { Quote } from "~/orders/model/quote-schema.server";
import { askForRevision, requestQuote } from "~/orders/quotes.server";
import { createUser } from "../setup/factories";
import { expect, test } from "./fixtures";

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

test("an admin prices a request within the floor or with the audited override, revises it, and declines another", async ({
  page,
  login,
  createPart,
  javaScriptEnabled,
}) => {
  await login({ role: "admin", name: "Sam Staff" });
  const customer = await createUser({ name: "Quinn Buyer" });
  const buyer = (await getUserById(customer.id))!;
  const pads = await createPart({ name: "Quote Pads", priceCents: 1250, minOrderQuantity: 10 });
  const discs = await createPart({ name: "Quote Discs", priceCents: 4000, minOrderQuantity: 10 });
  await Part.updateOne({ _id: pads.id }, { $set: { quoteFloors: [{ currency: "USD", priceCents: 1000 }] } });
  const ask = async () => {
    const outcome = await requestQuote(buyer, {
      intent: "request",
      lines: [
        { partNumber: pads.partNumber, quantity: 100, targetPrice: "9.00" },
        { partNumber: discs.partNumber, quantity: 20 },
      ],
    });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.errors));
    return outcome.quote;
  };
  const quote = await ask();
  const other = await ask();
  // The oldest waiting request, so Shop Today's first ten hold it whatever other tests left waiting.
  await Quote.updateOne({ _id: quote.id }, { $set: { waitingSince: new Date("2001-01-01T00:00:00Z") } });

  await page.goto("/dashboard/admin");
  const panel = page.getByTestId("quotes-to-answer");
  await expect(panel.getByRole("link", { name: quote.label })).toBeVisible();

  // Quotes, filtered by "waiting" and the buyer (a GET form: the filters are in the address).
  await page.goto("/dashboard/manageQuotes");
  await page.getByLabel("State").selectOption("waiting");
  await page.getByLabel("Customer: email, name or company").fill(buyer.email);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/status=waiting/);
  await expect(page.getByTestId("quote-row")).toHaveCount(2);
  await page.getByRole("link", { name: quote.label }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(`Quote ${quote.label}`);

  const price = (part: { partNumber: string }) => page.getByLabel(`Price a unit of ${part.partNumber}`);
  const lead = (part: { partNumber: string }) => page.getByLabel(`Lead time of ${part.partNumber} (days)`);
  await price(pads).fill("9.50");
  await lead(pads).fill("5");
  await price(discs).fill("41");
  await lead(discs).fill("14");
  await page.getByRole("button", { name: "Send version 1" }).click();
  await expect(
    page.getByText(
      'Below the floor price of $10.00: tick "Quote below the floor" to quote it (the override is audited)',
    ),
  ).toBeVisible();
  await expect(price(pads)).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("heading", { name: "Versions sent (0)" })).toBeVisible();

  // A validity in the past: our message with JavaScript, the browser's own check (the field's min) without.
  await page.getByLabel("Valid until (last day)").fill(day(-1));
  await page.getByLabel(`Quote below the floor for ${pads.partNumber}`).check();
  await page.getByRole("button", { name: "Send version 1" }).click();
  if (javaScriptEnabled) await expect(page.getByText("The quote must be valid until today or later")).toBeVisible();
  else
    expect(await page.getByLabel("Valid until (last day)").evaluate((el: HTMLInputElement) => el.validity.valid)).toBe(
      false,
    );
  await expect(page.getByRole("heading", { name: "Versions sent (0)" })).toBeVisible();

  // With the override ticked and a validity ahead, version 1 is sent, its line marked below the floor.
  await page.getByLabel("Valid until (last day)").fill(day(20));
  await page.getByRole("button", { name: "Send version 1" }).click();
  await expect(page.getByTestId("toast")).toContainText(`${quote.label}-1 is sent to Quinn Buyer`);
  await expect(page.getByTestId("quote-state")).toHaveText("Quoted");
  await expect(page.getByTestId("below-floor")).toHaveCount(1);

  await page.goto("/dashboard/audit?action=quote.floor-override");
  await expect(page.getByRole("link", { name: `${quote.label} for ${buyer.email}` }).first()).toBeVisible();

  // The buyer asks for a revision; version 2 starts from version 1 and goes out with a new price.
  const revised = await askForRevision(buyer, quote.id, "Can you do the discs at 40?");
  if (!revised.ok) throw new Error("the revision was refused");
  await page.goto(`/dashboard/manageQuotes/${quote.id}`);
  await expect(page.getByTestId("quote-messages")).toContainText("Can you do the discs at 40?");
  await expect(price(pads)).toHaveValue("9.50");
  await price(discs).fill("40.00");
  await page.getByRole("button", { name: "Send version 2" }).click();
  await expect(page.getByTestId("toast")).toContainText(`${quote.label}-2 is sent`);
  await expect(page.getByRole("heading", { name: "Versions sent (2)" })).toBeVisible();
  // Newest first: version 2 quotes the discs at their list price now, version 1 kept as sent.
  const [second, first] = [page.getByTestId("quote-version").nth(0), page.getByTestId("quote-version").nth(1)];
  await expect(second.getByRole("heading", { name: `${quote.label}-2` })).toBeVisible();
  await expect(second).not.toContainText("$41.00");
  await expect(first).toContainText("$41.00");

  // Declining the other request asks for a reason first (a modal with JavaScript, a page without).
  await page.goto(`/dashboard/manageQuotes/${other.id}`);
  await page.getByRole("link", { name: `Decline ${other.label}` }).click();
  const confirm = javaScriptEnabled ? page.getByRole("dialog", { name: `Decline ${other.label}?` }) : page;
  // Spaces pass the browser's own check; the reason is still missing.
  await confirm.getByLabel("Reason for Quinn Buyer").fill("   ");
  await confirm.getByRole("button", { name: `Decline ${other.label}` }).click();
  await expect(confirm.getByText("Tell the buyer why the request is declined")).toBeVisible();
  await confirm.getByLabel("Reason for Quinn Buyer").fill("We no longer stock these discs");
  await confirm.getByRole("button", { name: `Decline ${other.label}` }).click();
  await expect(page.getByTestId("toast")).toContainText(`${other.label} is declined`);
  await expect(page.getByTestId("quote-end")).toContainText("Declined: We no longer stock these discs");
});
