import type { ReactNode } from "react";

/** A page section headed by an h2 that also names the landmark. */
export function Section({
  id,
  title,
  intro,
  children,
  className = "",
}: {
  id: string;
  title: string;
  intro?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section aria-labelledby={`${id}-heading`} className={`py-12 ${className}`} data-section={id}>
      <div className="mx-auto max-w-7xl px-4">
        <h2 id={`${id}-heading`} className="text-center text-3xl font-bold tracking-tight text-slate-900">
          {title}
        </h2>
        {intro ? <p className="mx-auto mt-2 max-w-2xl text-center text-slate-700">{intro}</p> : null}
        <div className="mt-8">{children}</div>
      </div>
    </section>
  );
}

/** `rating` filled stars, read by a screen reader as "4 out of 5 stars". */
export function StarRating({ rating }: { rating: number }) {
  return (
    <p role="img" aria-label={`${rating} out of 5 stars`} className="flex gap-0.5 text-accent-600" data-rating={rating}>
      {Array.from({ length: rating }, (_, index) => (
        <svg key={index} aria-hidden="true" viewBox="0 0 20 20" width="18" height="18" fill="currentColor" data-star="">
          <path d="M10 1.5l2.6 5.4 5.9.8-4.3 4.1 1 5.8L10 14.9l-5.2 2.7 1-5.8L1.5 7.7l5.9-.8z" />
        </svg>
      ))}
    </p>
  );
}

/** A spinner that announces itself to screen readers. */
export function Spinner({ label }: { label: string }) {
  return (
    <div role="status" aria-label={label} className="flex flex-col items-center gap-3 py-10 text-slate-700">
      <span
        aria-hidden="true"
        className="h-10 w-10 animate-spin rounded-full border-4 border-brand-700 border-t-transparent motion-reduce:animate-none"
      />
      <span aria-hidden="true">{label}…</span>
    </div>
  );
}

const socialPaths: Record<string, ReactNode> = {
  Facebook: (
    <path d="M13.5 22v-8h2.7l.4-3.2h-3.1V8.8c0-.9.3-1.5 1.6-1.5h1.7V4.4c-.3 0-1.3-.1-2.5-.1-2.4 0-4.1 1.5-4.1 4.2v2.3H7.5V14h2.7v8z" />
  ),
  X: (
    <path d="M17.8 3h3.1l-6.8 7.8L22 21h-6.2l-4.9-6.4L5.3 21H2.2l7.3-8.3L2 3h6.4l4.4 5.8zm-1.1 16.2h1.7L7.4 4.7H5.6z" />
  ),
  LinkedIn: (
    <path d="M4 9h3.6v12H4zM5.8 3a2.1 2.1 0 110 4.2 2.1 2.1 0 010-4.2zM9.8 9h3.5v1.6c.5-.9 1.7-1.9 3.5-1.9 3.7 0 4.4 2.4 4.4 5.6V21h-3.6v-5.9c0-1.4 0-3.2-2-3.2s-2.2 1.5-2.2 3.1v6H9.8z" />
  ),
  YouTube: (
    <path d="M21.6 7.2a2.5 2.5 0 00-1.8-1.8C18.2 5 12 5 12 5s-6.2 0-7.8.4a2.5 2.5 0 00-1.8 1.8C2 8.8 2 12 2 12s0 3.2.4 4.8a2.5 2.5 0 001.8 1.8C5.8 19 12 19 12 19s6.2 0 7.8-.4a2.5 2.5 0 001.8-1.8c.4-1.6.4-4.8.4-4.8s0-3.2-.4-4.8zM10 15V9l5.2 3z" />
  ),
  Instagram: (
    <path d="M12 7.3a4.7 4.7 0 100 9.4 4.7 4.7 0 000-9.4zm0 7.7a3 3 0 110-6 3 3 0 010 6zm6-7.9a1.1 1.1 0 11-2.2 0 1.1 1.1 0 012.2 0zM16.5 2h-9A5.5 5.5 0 002 7.5v9A5.5 5.5 0 007.5 22h9a5.5 5.5 0 005.5-5.5v-9A5.5 5.5 0 0016.5 2zm3.7 14.5a3.7 3.7 0 01-3.7 3.7h-9a3.7 3.7 0 01-3.7-3.7v-9a3.7 3.7 0 013.7-3.7h9a3.7 3.7 0 013.7 3.7z" />
  ),
};

/** A labelled link to one of the company's social pages, shown as its icon. */
export function SocialLink({ network, url, company }: { network: string; url: string; company: string }) {
  return (
    <a
      href={url}
      rel="noopener noreferrer"
      target="_blank"
      aria-label={`${company} on ${network} (opens in a new tab)`}
      className="inline-flex h-11 w-11 items-center justify-center rounded-full bg-brand-800 text-white hover:bg-brand-900"
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" width="22" height="22" fill="currentColor">
        {socialPaths[network]}
      </svg>
    </a>
  );
}
