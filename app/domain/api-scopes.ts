/** What an API key may do. Customers' keys: read, order; staff keys (admins): stock, orders, payments. */
export const CUSTOMER_SCOPES = ["read", "order"] as const;
export const STAFF_SCOPES = ["stock", "orders", "payments"] as const;
export const API_SCOPES = [...CUSTOMER_SCOPES, ...STAFF_SCOPES] as const;
export type ApiScope = (typeof API_SCOPES)[number];

export const SCOPE_WORDS: Record<ApiScope, string> = {
  read: "Read parts, prices, stock, your orders, quotes, documents and statement",
  order: "Place and cancel orders, ask for quotes and accept them",
  stock: "Update stock and prices",
  orders: "List orders to ship and mark them shipped",
  payments: "Record payments",
};

/** The scopes a role may give its keys (a key never goes beyond its owner's role). */
export function scopesOfRole(role: "customer" | "admin"): readonly ApiScope[] {
  return role === "admin" ? STAFF_SCOPES : CUSTOMER_SCOPES;
}
