/** Shared by the integration tests: sessions, database snapshots, toasts, form helpers. */
import { getToast } from "~/services/toast.server";
import { expect } from "vitest";
import { Order } from "~/orders/model/schema.server";
import { Part } from "~/models/part.server";
import { Review } from "~/models/review.server";
import type { Role } from "~/models/user.server";
import { createUser, sessionCookieHeader } from "../setup/factories";

export async function signedIn(role: Role = "customer", name?: string) {
  const user = await createUser({ role, name });
  return { user, cookie: await sessionCookieHeader(user.id) };
}

/** Everything an action could have written: counts, and the documents a test watches. */
export async function snapshot({ partIds = [], orderIds = [] }: { partIds?: string[]; orderIds?: string[] } = {}) {
  const [orders, parts, reviews, watchedParts, watchedOrders] = await Promise.all([
    Order.countDocuments(),
    Part.countDocuments(),
    Review.countDocuments(),
    Part.find({ _id: { $in: partIds } })
      .sort({ _id: 1 })
      .lean(),
    Order.find({ _id: { $in: orderIds } })
      .sort({ _id: 1 })
      .lean(),
  ]);
  return JSON.parse(JSON.stringify({ orders, parts, reviews, watchedParts, watchedOrders }));
}

/** The toast a redirect left in its cookie. */
export async function toastOf(response: Response) {
  const cookie = response.headers
    .getSetCookie()
    .map((header) => header.split(";")[0])
    .join("; ");
  const { toast } = await getToast(new Request("http://localhost/", { headers: { Cookie: cookie } }));
  return toast;
}

/** A Conform reply: status 400 and the message under the field. */
export async function expectFieldError(response: Response, field: string, message: string | RegExp, status = 400) {
  expect(response.status).toBe(status);
  const body = await response.json();
  const reply = "result" in body ? body.result : body;
  const errors: string[] = reply.error?.[field] ?? [];
  expect(errors.some((error) => (typeof message === "string" ? error === message : message.test(error)))).toBe(true);
}

type Fields = Record<string, string>;

/** `{ name: value }` replaced into a form, or the field posted as a query-operator object. */
export function withField(fields: Fields, name: string, value: string | { $gt: string } | undefined): Fields {
  const rest = Object.fromEntries(Object.entries(fields).filter(([key]) => key !== name));
  if (value === undefined) return rest;
  if (typeof value === "object") return { ...rest, [`${name}.$gt`]: value.$gt };
  return { ...rest, [name]: value };
}

/** Bad values for any whole-number field, with the message each must produce. */
export const BAD_NUMBERS: [label: string, value: string | { $gt: string } | undefined, message: RegExp][] = [
  ["missing", undefined, /is Required/],
  ["empty", "", /is Required/],
  ["negative", "-5", /at least|minimum/],
  ["fractional", "150.5", /whole number/],
  ["huge", "99999999999999999999", /at most|Only .* units/],
  ["infinite", "1e400", /whole number/],
  ["non-numeric", "many", /whole number/],
  ["a query operator as text", '{"$gt": ""}', /whole number/],
  ["a query-operator object", { $gt: "" }, /whole number/],
];

/** Bad values for a required text field of at most `max` characters. */
export function badTexts(label: string, max: number): [string, string | { $gt: string } | undefined, RegExp][] {
  return [
    ["missing", undefined, new RegExp(`${label} is Required`)],
    ["blank", "   ", new RegExp(`${label} is Required`)],
    ["over-long", "x".repeat(max + 1), new RegExp(`${max} characters or fewer`)],
    ["a query-operator object", { $gt: "" }, new RegExp(`${label} must be text`)],
  ];
}
