import { useEffect, useState } from "react";

export const TOAST_DURATION_MS = 5000;

type Toast = {
  message: string;
  type: "info" | "success" | "error" | "warning";
  description?: string;
  /** How long it stays, in ms (remix-toast's `duration`); TOAST_DURATION_MS by default. */
  duration?: number;
};

const styles: Record<Toast["type"], string> = {
  success: "border-green-700 bg-green-50 text-green-900",
  error: "border-red-700 bg-red-50 text-red-900",
  warning: "border-amber-600 bg-amber-50 text-amber-900",
  info: "border-brand-700 bg-brand-50 text-brand-900",
};

/**
 * Shows the toast a redirect left behind. It is in the server-rendered HTML (so it is seen without
 * JavaScript) and closes itself after 5000 ms (or the toast's own duration) once JavaScript runs.
 */
export function Toaster({ toast }: { toast: Toast | null }) {
  const [visible, setVisible] = useState<Toast | null>(toast);

  useEffect(() => {
    setVisible(toast);
    if (!toast) return;
    const timer = setTimeout(() => setVisible(null), toast.duration ?? TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [toast]);

  return (
    <div
      role="status"
      aria-live="polite"
      // On a phone at the bottom of the screen: at the top it covered the page's heading and first field.
      className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex justify-center px-4 sm:bottom-auto sm:top-16"
    >
      {visible ? (
        <div
          className={`pointer-events-auto flex max-w-md items-start gap-3 rounded border-l-4 px-4 py-3 shadow-lg ${styles[visible.type]}`}
          data-testid="toast"
          data-type={visible.type}
        >
          <div>
            <p className="font-medium">{visible.message}</p>
            {visible.description ? <p className="text-sm">{visible.description}</p> : null}
          </div>
          <button
            type="button"
            onClick={() => setVisible(null)}
            className="ml-2 inline-flex min-h-11 min-w-11 items-center justify-center text-sm underline"
            aria-label="Dismiss notification"
          >
            ×
          </button>
        </div>
      ) : null}
    </div>
  );
}
