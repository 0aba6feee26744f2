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
  const region = form.getByLabel(/^(State|Province|Region|State or region|State or territory)$/);
  // A country without states (Germany, …) has no region: with JavaScript the list is disabled; without,
  // a state chosen before (say, pre-filled) must be cleared by hand.
  if (address.region) await region.selectOption(address.region);
  else if (await region.isEnabled()) await region.selectOption("");
}
