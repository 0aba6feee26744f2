/**
 * How the API shows a quote and says a quote service's refusal: the quote as its webhook payload
 * (quotePayload) with every version; a refusal as problem+json, its fields in the API's names
 * (`lines.1.partNumber` for the form's `lines[1].partNumber`).
 */
import { problem, validationProblem } from "~/services/api.server";
import type { QuoteView } from "./model/quotes.server";
import { quotePayload, quoteVersionPayload } from "./quote-events.server";
import type { FieldErrors } from "./quotes.server";

export function quoteJson(quote: QuoteView) {
  return {
    ...quotePayload(quote),
    versions: quote.versions.map((version) => ({
      ...quoteVersionPayload(version),
      note: version.note,
      sentAt: version.sentAt,
    })),
  };
}

/** The form's field names as the API's bodies name them. */
const apiField = (name: string) =>
  name
    .replace(/\[(\d+)\]/g, ".$1")
    .replace(/\.targetPrice$/, ".targetUnitPriceCents")
    .replace(/^delivery\./, "deliveryAddress.") || "(body)";

/** A quote service's refusal: bad fields 422 (as every invalid field of the API), else its own status. */
export function quoteRefusalProblem(status: number, errors: FieldErrors) {
  const fields = Object.entries(errors).flatMap(([name, messages]) =>
    messages.map((message) => ({ field: apiField(name), message })),
  );
  if (status === 400) return validationProblem(fields);
  return problem(status, fields.map((field) => field.message).join(" ") || "The quote cannot be changed so.");
}
