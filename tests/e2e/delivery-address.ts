/** Fills an order form's delivery address field by field (app/components/delivery-fields.tsx). */
import type { Locator, Page } from "@playwright/test";
import { DETROIT } from "../fixtures/addresses";
import type { PostalAddress } from "~/domain/address";

export async function fillDeliveryAddress(scope: Page | Locator, address: PostalAddress = DETROIT) {
  const form = scope.getByRole("group", { name: "Delivery address" });
  await form.getByLabel("Street address").fill(address.line1);
  await form.getByLabel("Address line 2 (optional)").fill(address.line2);
  await form.getByLabel("City").fill(address.city);
  await form.getByLabel(/^(ZIP|Postal) code$/).fill(address.postalCode);
  await form.getByLabel("Country").selectOption(address.country);
  await form.getByLabel(/^(State|Province|Region|State or region|State or territory)$/).selectOption(address.region);
}
