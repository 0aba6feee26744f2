// Intl.NumberFormat is costly to construct: one per shape, made once.
const DOLLARS_AND_CENTS = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 2,
});
const PLAIN_CENTS = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, useGrouping: false });

/**
 * The one way the shop writes money it keeps as integer cents, on every screen, document, mail and
 * CSV: always with cents, so amounts side by side read alike ("$1,250.00" beside "$7,248.80").
 * `plain` drops the sign and the grouping, for a spreadsheet or a machine to read ("1250.00").
 */
export function formatCents(cents: number, { plain = false }: { plain?: boolean } = {}) {
  return (plain ? PLAIN_CENTS : DOLLARS_AND_CENTS).format(cents / 100);
}

export const formatMoney = formatCents;

const EURO_CENTS = new Intl.NumberFormat("en-US", { style: "currency", currency: "EUR", minimumFractionDigits: 2 });

/** Euro cents (an invoice's VAT in euros, BT-111): "€1,312.29". */
export function formatEuroCents(cents: number) {
  return EURO_CENTS.format(cents / 100);
}
