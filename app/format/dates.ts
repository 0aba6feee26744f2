// A fixed locale and time zone, so the server and the browser render the same text.
const DATE_TIME = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const DATE = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });

type When = string | Date | null | undefined;

/** A moment people read, always with its time zone: "Nov 27, 2026, 2:48 PM UTC". Empty for none. */
export function formatDateTime(when: When) {
  if (!when) return "";
  return `${DATE_TIME.format(new Date(when))} UTC`;
}

/** A day (a due date, an issue date): "Nov 27, 2026". No time, so no time zone. */
export function formatDate(when: When) {
  if (!when) return "";
  return DATE.format(new Date(when));
}
