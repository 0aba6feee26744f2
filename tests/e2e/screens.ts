import { ORDER_STATES, type OrderState } from "~/domain/order-states";

/**
 * Every screen of the shop, once, for the two walks that visit them all: accessibility.spec.ts (axe
 * and the phone layout with JavaScript, each role a demo login on the demo's data) and phone.spec.ts
 * (the phone layout without JavaScript, as a visitor, a customer and an admin, on data made to be
 * long). A new screen is one line in SCREENS, and both walks visit it.
 *
 * `only` keeps a screen to one walk. The accessibility walk checks a page made of the same component
 * as one it checks once (the confirmation pages for no JavaScript, the mailed links' error pages); the
 * phone walk leaves out the roles it does not sign in as (the trade company's owner, buyer and
 * accounts member) and the screens of records it does not make.
 */
export type Role = "visitor" | "customer" | "owner" | "buyer" | "accounts" | "admin";

/** The records the screens' addresses name: each walk makes its own (walkData). */
export type ScreenData = {
  partId: string;
  /** A customer's account (the demo's Casey; the phone walk's long-named customer). */
  customerId: string;
  /** The trade company's owner and their company. */
  ownerId: string;
  companyId: string;
  invitationToken: string;
  reviewId: string;
  /** A numbered return (the demo's received one) and its order, for the RMA document. */
  rmaOrderId: string;
  rmaNumber: string;
  /** The trade company's shared list (the demo's monthly restock). */
  listId: string;
  /** A quote of the demo still open (waiting for the shop or quoted), for the staff's quote screens. */
  quoteId: string;
  /** The trade company's accepted quote (the demo's), for its quotation. */
  acceptedQuoteId: string;
  /** An order in each state; "unpaid" and "pending" (paid, nothing shipped) in both walks. */
  orders: Record<OrderState, string>;
};

export type Screen = {
  role: Role;
  path: string | ((data: ScreenData) => string);
  /** The screen is an error page: it answers 4xx. */
  error?: boolean;
  /** In the accessibility walk, every rule at 360 px too: a screen whose layout has controls only a phone shows. */
  phoneLayout?: boolean;
  /** From work that may not be in this build yet: the phone walk skips it, saying so, while its route answers 404. */
  optional?: boolean;
  /** Visited by one walk only. */
  only?: "accessibility" | "phone";
};

/** The states of the orders the phone walk makes (the admin's screens of the others are the accessibility walk's). */
const BOTH_WALKS_ORDERS: OrderState[] = ["unpaid", "pending"];

export const SCREENS: Screen[] = [
  { role: "visitor", path: "/", phoneLayout: true },
  { role: "visitor", path: "/parts", phoneLayout: true },
  { role: "visitor", path: "/parts?q=no-such-part-anywhere" },
  { role: "visitor", path: "/blogs" },
  { role: "visitor", path: "/portfolio" },
  { role: "visitor", path: "/login" },
  { role: "visitor", path: "/signup" },
  { role: "visitor", path: "/forgot-password" },
  { role: "visitor", path: "/currency" },
  { role: "visitor", path: "/reset-password?token=no-such-token", error: true },
  { role: "visitor", path: "/verify-email?token=no-such-token", error: true },
  { role: "visitor", path: "/change-email?token=no-such-token", error: true, only: "phone" },
  { role: "visitor", path: "/unsubscribe?token=no-such-token", error: true },
  { role: "visitor", path: (d) => `/invitations/${d.invitationToken}`, only: "accessibility" },
  { role: "visitor", path: "/api/docs", only: "accessibility" },
  { role: "visitor", path: "/no-such-page", error: true },

  { role: "customer", path: "/", only: "phone" },
  { role: "customer", path: (d) => `/parts/${d.partId}` },
  { role: "customer", path: "/dashboard", phoneLayout: true },
  { role: "customer", path: "/dashboard/orders" },
  { role: "customer", path: (d) => `/dashboard/orders/${d.orders.unpaid}` },
  { role: "customer", path: (d) => `/dashboard/orders/${d.orders.pending}` },
  { role: "customer", path: (d) => `/dashboard/orders/${d.orders.shipped}`, only: "accessibility" },
  { role: "customer", path: (d) => `/dashboard/orders/${d.orders.cancelled}`, only: "accessibility" },
  { role: "customer", path: (d) => `/dashboard/orders/${d.orders.unpaid}/cancel` },
  { role: "customer", path: (d) => `/dashboard/payment/${d.orders.unpaid}` },
  { role: "customer", path: (d) => `/dashboard/payment/${d.orders.unpaid}/success` },
  { role: "customer", path: (d) => `/documents/${d.orders.unpaid}/pro-forma` },
  { role: "customer", path: (d) => `/documents/${d.orders.pending}/invoice` },
  { role: "customer", path: (d) => `/documents/${d.rmaOrderId}/rma/${d.rmaNumber}`, only: "accessibility" },
  {
    role: "customer",
    path: (d) => `/documents/${d.orders["part-shipped"]}/packing-slip?parcel=1`,
    only: "accessibility",
  },
  { role: "customer", path: "/dashboard/cart" },
  { role: "customer", path: "/dashboard/quick-order" },
  { role: "customer", path: "/dashboard/lists" },
  { role: "customer", path: "/dashboard/quotes" },
  { role: "customer", path: "/dashboard/quotes/new" },
  { role: "customer", path: "/dashboard/review" },
  { role: "customer", path: "/dashboard/sessions" },

  { role: "owner", path: "/dashboard" },
  { role: "owner", path: "/dashboard/orders" },
  { role: "owner", path: (d) => `/dashboard/orders/${d.orders.overdue}` },
  { role: "owner", path: (d) => `/dashboard/orders/${d.orders["part-paid"]}` },
  { role: "owner", path: (d) => `/dashboard/orders/${d.orders["on-account"]}` },
  { role: "owner", path: (d) => `/dashboard/orders/${d.orders.approval}` },
  { role: "owner", path: (d) => `/dashboard/orders/${d.orders.approval}/decline` },
  { role: "owner", path: "/dashboard/statement" },
  { role: "owner", path: (d) => `/documents/${d.orders.overdue}/invoice` },
  { role: "owner", path: (d) => `/documents/quotes/${d.acceptedQuoteId}/1`, only: "accessibility" },
  { role: "owner", path: "/dashboard/company" },
  { role: "owner", path: "/dashboard/lists" },
  { role: "owner", path: "/dashboard/quotes" },
  { role: "owner", path: (d) => `/dashboard/quotes/${d.quoteId}`, only: "accessibility" },
  { role: "owner", path: (d) => `/dashboard/lists/${d.listId}`, only: "accessibility" },
  { role: "owner", path: (d) => `/dashboard/lists/${d.listId}/delete`, only: "accessibility" },
  { role: "owner", path: "/dashboard/apiKeys" },
  { role: "owner", path: "/dashboard/webhooks" },

  { role: "buyer", path: "/dashboard/orders" },
  { role: "buyer", path: (d) => `/dashboard/orders/${d.orders.approval}` },
  { role: "buyer", path: "/dashboard/company" },
  { role: "buyer", path: (d) => `/dashboard/lists/${d.listId}`, only: "accessibility" },
  { role: "buyer", path: "/dashboard/apiKeys" },
  { role: "buyer", path: "/dashboard/webhooks" },

  { role: "accounts", path: "/dashboard/orders" },
  { role: "accounts", path: "/dashboard/statement" },

  { role: "admin", path: "/dashboard", phoneLayout: true },
  { role: "admin", path: "/dashboard/admin" },
  { role: "admin", path: (d) => `/parts/${d.partId}` },
  { role: "admin", path: "/dashboard/failedMail", only: "accessibility" },
  { role: "admin", path: "/dashboard/allUsers" },
  { role: "admin", path: (d) => `/dashboard/allUsers/${d.ownerId}`, only: "accessibility" },
  { role: "admin", path: (d) => `/dashboard/allUsers/${d.customerId}/make-admin` },
  { role: "admin", path: (d) => `/dashboard/allUsers/${d.customerId}/sign-out`, only: "phone" },
  { role: "admin", path: "/dashboard/companies", only: "accessibility" },
  { role: "admin", path: (d) => `/dashboard/companies/${d.companyId}`, only: "accessibility" },
  { role: "admin", path: "/dashboard/addProduct" },
  { role: "admin", path: "/dashboard/manageProducts" },
  { role: "admin", path: (d) => `/dashboard/manageProducts/${d.partId}/edit` },
  { role: "admin", path: (d) => `/dashboard/manageProducts/${d.partId}/delete`, only: "phone" },
  { role: "admin", path: "/dashboard/manageProducts/import" },
  { role: "admin", path: "/dashboard/manageProducts/priceLists/import", only: "accessibility" },
  { role: "admin", path: "/dashboard/manageOrders" },
  { role: "admin", path: "/dashboard/manageOrders?status=overdue", only: "accessibility" },
  ...ORDER_STATES.map((state): Screen => ({
    role: "admin",
    path: (d) => `/dashboard/manageOrders/${d.orders[state]}`,
    ...(BOTH_WALKS_ORDERS.includes(state) ? {} : { only: "accessibility" }),
  })),
  { role: "admin", path: (d) => `/dashboard/manageOrders/${d.orders.unpaid}/remove` },
  { role: "admin", path: "/dashboard/manageQuotes" },
  { role: "admin", path: (d) => `/dashboard/manageQuotes/${d.quoteId}`, only: "accessibility" },
  { role: "admin", path: (d) => `/dashboard/manageQuotes/${d.quoteId}/decline`, only: "accessibility" },
  { role: "admin", path: (d) => `/documents/${d.orders.unpaid}/pro-forma`, only: "phone" },
  { role: "admin", path: (d) => `/documents/${d.orders.pending}/invoice`, only: "phone" },
  { role: "admin", path: (d) => `/documents/${d.orders.pending}/packing-slip` },
  { role: "admin", path: (d) => `/documents/${d.orders["part-shipped"]}/packing-slip`, only: "accessibility" },
  { role: "admin", path: "/dashboard/priceGroups", only: "accessibility" },
  { role: "admin", path: "/dashboard/exchangeRates" },
  { role: "admin", path: "/dashboard/reviews" },
  { role: "admin", path: (d) => `/dashboard/reviews/${d.reviewId}/delete`, only: "phone" },
  { role: "admin", path: "/dashboard/audit" },
  { role: "admin", path: "/dashboard/apiKeys", only: "accessibility" },
  { role: "admin", path: "/dashboard/sessions" },
  { role: "admin", path: "/dashboard/webhooks", only: "accessibility" },
];

/** The screens a walk visits: those not kept to the other walk, of the roles it signs in as. */
export function screensFor<R extends Role>(walk: "accessibility" | "phone", roles: readonly R[]) {
  return SCREENS.filter(
    (screen): screen is Screen & { role: R } =>
      (!screen.only || screen.only === walk) && (roles as readonly Role[]).includes(screen.role),
  );
}

const placeholders = new Proxy({} as Record<string, unknown>, {
  get: (_, key) =>
    key === "orders" ? new Proxy({}, { get: (__, state) => `:${String(state)}-order` }) : `:${String(key)}`,
}) as unknown as ScreenData;

/** The screen's address with its records named (`/dashboard/orders/:unpaid-order`), for a test's title. */
export function screenLabel(screen: Screen) {
  return typeof screen.path === "string" ? screen.path : screen.path(placeholders);
}

/** The screen's address with this walk's records. */
export function screenPath(screen: Screen, data: ScreenData) {
  return typeof screen.path === "string" ? screen.path : screen.path(data);
}

type Made = Partial<Omit<ScreenData, "orders">> & { orders: Partial<ScreenData["orders"]> };

const RECORDS: readonly string[] = [
  "partId",
  "customerId",
  "ownerId",
  "companyId",
  "invitationToken",
  "reviewId",
  "rmaOrderId",
  "rmaNumber",
  "listId",
  "quoteId",
  "acceptedQuoteId",
];

/**
 * The records a walk made, as ScreenData: a screen that names one the walk did not make fails,
 * saying which, instead of opening `/parts/undefined`.
 */
export function walkData(walk: string, made: Made): ScreenData {
  const need = <T extends object>(records: T, names: readonly string[], prefix: string) =>
    new Proxy(records, {
      get: (target, key) => {
        const value = Reflect.get(target, key);
        if (value === undefined && typeof key === "string" && names.includes(key)) {
          throw new Error(
            `${walk} makes no ${prefix}${key}: make it there, or keep the screen to the other walk (only)`,
          );
        }
        return value;
      },
    });
  return need({ ...made, orders: need(made.orders, ORDER_STATES, "order ") }, RECORDS, "") as ScreenData;
}
