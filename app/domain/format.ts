/** How the shop writes text for people to read; money, quantities and dates live in app/format. */
export function truncate(text: string, max: number) {
  return text.length > max ? `${text.slice(0, max).trimEnd()}…` : text;
}
