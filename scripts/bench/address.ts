/** The benchmarks' delivery address, field by field (app/domain/address.ts), and as an order form posts it. */
import { EMPTY_ADDRESS, type PostalAddress } from "../../app/domain/address";

export const BENCH_ADDRESS: PostalAddress = {
  ...EMPTY_ADDRESS,
  line1: "1 Benchmark Avenue",
  city: "Detroit",
  region: "MI",
  postalCode: "48209",
  country: "US",
};

export function addressForm(address: PostalAddress) {
  return Object.fromEntries(Object.entries(address).map(([key, value]) => [`delivery.${key}`, value]));
}
