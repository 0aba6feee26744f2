/**
 * The shop's settings the models act on. Models never read the environment: the database
 * connection (services/db.server.ts) hands them a reader of the validated settings as it connects.
 */
export type ModelSettings = {
  /** How long a reserving order may take to hold its stock (STOCK_RESERVE_DEADLINE_SECONDS). */
  stockReserveMs: number;
  /** How long an unpaid card order holds its stock (ORDER_HOLD_HOURS). */
  orderHoldMs: number;
  /** How long after a parcel ships its units may be returned (RETURN_WINDOW_DAYS). */
  returnWindowMs: number;
  /** What one customer may hold awaiting card payment, by whether their email is verified. */
  unpaidCaps: Record<"verified" | "unverified", { orders: number; valueCents: number }>;
};

let readSettings: (() => ModelSettings) | undefined;

export function provideModelSettings(read: () => ModelSettings) {
  readSettings = read;
}

export function modelSettings(): ModelSettings {
  const read = readSettings;
  if (!read) throw new Error("The models were used before connectDb handed them the shop's settings");
  return read();
}
