const GROUPED = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** A count with thousands separators: "1,200". */
export function formatQuantity(quantity: number) {
  return GROUPED.format(quantity);
}

/** A count with its unit: "1 unit", "1,200 units". */
export function formatUnits(quantity: number, unit = "unit") {
  return `${GROUPED.format(quantity)} ${quantity === 1 ? unit : `${unit}s`}`;
}

const DECIMAL = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

/** A number that may have a fraction (a percentage, a setting), grouped: "1,200", "2.5". */
export function formatNumber(value: number) {
  return DECIMAL.format(value);
}
