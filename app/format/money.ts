// Intl.NumberFormat is costly to construct: one per shape, made once.
const WHOLE_DOLLARS = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 0 });
const DOLLARS_AND_CENTS = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 2,
});

const PLAIN_WHOLE = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0, useGrouping: false });
const PLAIN_CENTS = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, useGrouping: false });

/**
 * The one way the shop writes money it keeps as integer cents, on every screen, document, mail and
 * CSV: whole dollars without cents ("$1,250"), any other amount with two decimals ("$7,248.80").
 * `plain` drops the sign and the grouping, for a spreadsheet or a machine to read ("1250", "7248.80").
 */
export function formatCents(cents: number, { plain = false }: { plain?: boolean } = {}) {
  const whole = cents % 100 === 0;
  const format = plain ? (whole ? PLAIN_WHOLE : PLAIN_CENTS) : whole ? WHOLE_DOLLARS : DOLLARS_AND_CENTS;
  return format.format(cents / 100);
}

export const formatMoney = formatCents;
