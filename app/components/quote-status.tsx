import { QUOTE_STATUS_WORDS, type QuoteStatus } from "~/domain/quotes";

const TONES = {
  wait: "border-amber-700 bg-amber-50 text-amber-900",
  act: "border-brand-700 bg-brand-50 text-brand-900",
  done: "border-slate-500 bg-slate-50 text-slate-800",
} as const;

/** A quote's state as the buyer reads it: the short word, and what it means for them. */
export function QuoteStatusBadge({ status, long = false }: { status: QuoteStatus; long?: boolean }) {
  const words = QUOTE_STATUS_WORDS[status];
  return (
    <span className="inline-flex flex-wrap items-center gap-2" data-testid="quote-status">
      <span className={`rounded border px-2 py-0.5 text-xs font-semibold ${TONES[words.tone]}`}>{words.label}</span>
      {long ? <span className="text-slate-800">{words.buyer}</span> : null}
    </span>
  );
}
