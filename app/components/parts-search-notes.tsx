/**
 * What /parts says about how it read a search: the vehicle it understood in the text (with a way
 * to search without it), typing errors it forgave, part numbers it did not find, and "did you mean"
 * when nothing matched. Plain links: they work without JavaScript.
 */
import { Link } from "@remix-run/react";
import { partsHref, type PartsState } from "~/domain/parts-url";

const linkClass = "text-brand-700 underline hover:text-brand-900";

type TypedVehicle = { label: string; rest: string } | null;

export function SearchNotes({
  state,
  typedVehicle,
  forgiven,
  listed,
}: {
  state: PartsState;
  typedVehicle: TypedVehicle;
  forgiven: boolean;
  listed: boolean;
}) {
  if (!typedVehicle && !forgiven && !listed) return null;
  return (
    <div className="mt-3 space-y-1 text-slate-800" data-testid="search-notes">
      {typedVehicle ? (
        <p data-testid="typed-vehicle">
          Showing parts that fit <strong>{typedVehicle.label}</strong>.{" "}
          <Link to={partsHref(state, { q: typedVehicle.rest })} className={linkClass}>
            {typedVehicle.rest ? `Search all parts for “${typedVehicle.rest}”` : "Show all parts"}
          </Link>
        </p>
      ) : null}
      {forgiven ? (
        <p data-testid="forgiven">Nothing matched the words exactly, so these are the closest spellings.</p>
      ) : null}
      {listed ? <p data-testid="number-list">The part numbers you typed, in the order you typed them.</p> : null}
    </div>
  );
}

export function MissingNumbers({ numbers }: { numbers: string[] }) {
  return (
    <p className="mt-3 rounded border border-amber-300 bg-amber-50 p-3 text-amber-950" data-testid="missing-numbers">
      Not found: {numbers.join(", ")}.
    </p>
  );
}

export function DidYouMean({ state, suggestions }: { state: PartsState; suggestions: { q: string; label: string }[] }) {
  if (suggestions.length === 0) return null;
  return (
    <div className="mt-3" data-testid="did-you-mean">
      <h3 className="font-semibold text-slate-900">Did you mean</h3>
      <ul className="mt-1 flex flex-wrap justify-center gap-x-4 gap-y-1">
        {suggestions.map((suggestion) => (
          <li key={suggestion.q}>
            <Link
              to={partsHref(state, { q: suggestion.q })}
              className={`${linkClass} inline-flex min-h-11 items-center`}
            >
              {suggestion.label}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
