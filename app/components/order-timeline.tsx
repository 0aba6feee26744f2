import { Link } from "@remix-run/react";
import type { TimelineEvent } from "~/domain/order-timeline";
import { formatDateTime } from "~/format";

/** The order's events, oldest first, each with its time and who did it. */
export function OrderTimeline({ events }: { events: TimelineEvent[] }) {
  return (
    <ol className="text-slate-800" data-testid="order-timeline">
      {events.map((event, index) => (
        <li key={`${event.event}-${index}`} data-event={event.event}>
          <span className="font-medium">{event.label}</span>
          {event.link ? (
            <>
              {" "}
              <Link to={event.link.to} className="break-all font-mono text-brand-700 underline">
                {event.link.text}
              </Link>
            </>
          ) : null}
          {/* The time on a line of its own: run on after the label it read as part of it. */}
          <span className="block text-sm text-slate-600">
            <time dateTime={event.at}>{formatDateTime(event.at)}</time>
            {event.actor ? `, by ${event.actor}` : ""}
          </span>
        </li>
      ))}
    </ol>
  );
}
