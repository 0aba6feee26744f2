/**
 * The one place that turns money, quantities and dates into words people read: screens, mail,
 * documents and CSV all call it, on the server and in the browser alike.
 */
export { formatAmount, formatCents, formatCurrencyName, formatEuroCents, formatMoney } from "./money";
export { formatNumber, formatQuantity, formatUnits } from "./quantity";
export { formatDate, formatDateTime } from "./dates";
