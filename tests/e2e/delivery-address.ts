/** Fills an order form's delivery address field by field (app/components/delivery-fields.tsx). */
import type { Locator, Page } from "@playwright/test";
import { DETROIT } from "../fixtures/addresses";
import type { PostalAddress } from "~/domain/address";

/** `legend` names the fieldset: "Delivery address" on order forms, "Address" in My Profile's address book. */
export async function fillDeliveryAddress(
  scope: Page | Locator,
  address: PostalAddress = DETROIT,
  legend = "Delivery address",
) {
  const form = scope.getByRole("group", { name: legend, exact: true });
  await form.getByLabel("Street address").fill(address.line1);
  await form.getByLabel("Address line 2 (optional)").fill(address.line2);
  await form.getByLabel("City").fill(address.city);
  await form.getByLabel(/^(ZIP|Postal) code$/).fill(address.postalCode);
  await form.getByLabel("Country").selectOption(address.country);
  // A country without states (Germany, …) has no region to choose: the list is disabled with JavaScript.
  if (address.region) {
    await form.getByLabel(/^(State|Province|Region|State or region|State or territory)$/).selectOption(address.region);
  }
}
