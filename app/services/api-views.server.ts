/** How the API shows parts: money as integer cents with its currency (orders: app/orders/api-view.server.ts). */
import type { PartCatalogue } from "~/models/part-catalogue.server";
import type { PartView } from "~/domain/catalogue";
import { money } from "./api.server";
import { DEFAULT_BRAND, type Category } from "~/domain/catalogue";

export function partJson(
  part: Omit<PartView, "createdAt"> & { brand?: string; category?: Category; listPriceCents?: number },
) {
  return {
    id: part.id,
    partNumber: part.partNumber,
    name: part.name,
    description: part.description,
    brand: part.brand ?? DEFAULT_BRAND,
    category: part.category ?? ("other" as Category),
    price: money(part.priceCents),
    minOrderQuantity: part.minOrderQuantity,
    availableQuantity: Math.max(0, part.availableQuantity),
    inStock: part.availableQuantity >= part.minOrderQuantity,
    ...(part.listPriceCents ? { listPrice: money(part.listPriceCents) } : {}),
  };
}

export function partDetailJson(part: Omit<PartView, "createdAt"> & PartCatalogue) {
  return { ...partJson(part), oeNumbers: part.oeNumbers, fitment: part.fitment };
}
