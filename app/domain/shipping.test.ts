import { describe, expect, test } from "vitest";
import { describeShipment } from "./shipping";

describe("describeShipment", () => {
  test("names the carrier and links its tracking page with the number encoded", () => {
    expect(describeShipment({ carrier: "ups", trackingNumber: "1Z 999&x" })).toEqual({
      text: "UPS, tracking number 1Z 999&x",
      trackingUrl: "https://www.ups.com/track?tracknum=1Z%20999%26x",
    });
  });

  test("a parcel collected from the works has no tracking", () => {
    expect(describeShipment({ carrier: "collected", trackingNumber: null })).toEqual({
      text: "Collected by the customer",
      trackingUrl: null,
    });
  });

  test("a carrier without a number, or one no longer listed, is named without a link", () => {
    expect(describeShipment({ carrier: "dhl", trackingNumber: null })).toEqual({ text: "DHL", trackingUrl: null });
    expect(describeShipment({ carrier: "Pallet line", trackingNumber: "PL-1" })).toEqual({
      text: "Pallet line, tracking number PL-1",
      trackingUrl: null,
    });
  });

  test("no shipment reads as nothing", () => {
    expect(describeShipment(null)).toBeNull();
  });
});
