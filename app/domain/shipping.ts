import { carriers, COLLECTED } from "~/content/carriers";

/** How an order left, as people read it (shared by the order pages, the shipped email and the packing slip). */
export function describeShipment(shipment: { carrier: string; trackingNumber: string | null } | null) {
  if (!shipment) return null;
  if (shipment.carrier === COLLECTED) return { text: "Collected by the customer", trackingUrl: null };
  const carrier = carriers.find((entry) => entry.id === shipment.carrier);
  const name = carrier?.name ?? shipment.carrier;
  const number = shipment.trackingNumber;
  return {
    text: number ? `${name}, tracking number ${number}` : name,
    trackingUrl: carrier && number ? carrier.trackingUrl.replace("{number}", encodeURIComponent(number)) : null,
  };
}
