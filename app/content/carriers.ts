/**
 * The carriers an order can ship with, and each one's tracking page: `{number}` is replaced by the
 * tracking number. Add a carrier here and it appears in the ship form, the order page, the shipped
 * email and the packing slip.
 */
export const carriers = [
  { id: "ups", name: "UPS", trackingUrl: "https://www.ups.com/track?tracknum={number}" },
  { id: "fedex", name: "FedEx", trackingUrl: "https://www.fedex.com/fedextrack/?trknbr={number}" },
  { id: "usps", name: "USPS", trackingUrl: "https://tools.usps.com/go/TrackConfirmAction?tLabels={number}" },
  { id: "dhl", name: "DHL", trackingUrl: "https://www.dhl.com/us-en/home/tracking.html?tracking-id={number}" },
] as const;

/** Not a carrier: the customer fetched the goods from the works. */
export const COLLECTED = "collected";
