import { Form, Link, useFetcher, useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { Button, ErrorList, SubmitButton } from "~/components/forms";

/**
 * A confirmation step. The trigger is a link to the confirmation page (`href`), which renders the
 * same form, so it works without JavaScript; with JavaScript the link opens a modal <dialog>
 * instead. The dialog closes itself after a navigation (the redirect that follows a success).
 */
export function ConfirmDialog({
  label,
  accessibleLabel,
  href,
  title,
  className,
  children,
}: {
  label: ReactNode;
  /** The link's accessible name when the visible label alone is ambiguous (one per table row). */
  accessibleLabel?: string;
  href: string;
  title: string;
  className?: string;
  children: (close: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const location = useLocation();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (open && dialog && !dialog.open) dialog.showModal();
  }, [open]);

  useEffect(() => {
    setOpen(false);
  }, [location.key]);

  const close = () => {
    dialogRef.current?.close();
    setOpen(false);
  };

  return (
    <>
      <Link
        to={href}
        aria-label={accessibleLabel}
        aria-haspopup="dialog"
        className={className}
        onClick={(event) => {
          if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
          event.preventDefault();
          setOpen(true);
        }}
      >
        {label}
      </Link>
      {open ? (
        <dialog
          ref={dialogRef}
          aria-labelledby={titleId}
          onClose={() => setOpen(false)}
          className="w-full max-w-md rounded-lg p-6 text-left shadow-xl backdrop:bg-slate-900/60"
        >
          <h2 id={titleId} className="text-xl font-semibold text-slate-900">
            {title}
          </h2>
          <div className="mt-4">{children(close)}</div>
        </dialog>
      ) : null}
    </>
  );
}

/** The link style of the triggers in tables. */
export const confirmLinkClass =
  "inline-flex min-h-11 items-center rounded px-3 py-1.5 text-sm font-medium text-white bg-red-700 hover:bg-red-800";

/** The same for a step that grants rather than takes away (Make Admin). */
export const confirmGrantLinkClass =
  "inline-flex min-h-11 items-center rounded px-3 py-1.5 text-sm font-medium text-white bg-brand-700 hover:bg-brand-800";

type FormComponentType = typeof Form | ReturnType<typeof useFetcher>["Form"];

/** Errors of a Conform reply (form and field errors together), or of a thrown message. */
export function replyErrors(data: unknown): string[] {
  if (!data || typeof data !== "object") return [];
  const error = (data as { error?: Record<string, string[] | null> | null }).error;
  if (!error) return [];
  return Object.values(error).flatMap((messages) => messages ?? []);
}

function ConfirmFormBody({
  FormComponent,
  action,
  hidden,
  message,
  confirmLabel,
  pendingLabel,
  pending,
  errors,
  keep,
  tone = "danger",
}: {
  FormComponent: FormComponentType;
  action: string;
  hidden: Record<string, string>;
  message: ReactNode;
  confirmLabel: string;
  pendingLabel: string;
  pending: boolean;
  errors: string[];
  keep: ReactNode;
  tone?: "danger" | "primary";
}) {
  return (
    <FormComponent method="post" action={action}>
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div className="text-slate-800">{message}</div>
      <ErrorList errors={errors} />
      <div className="mt-2 flex justify-end gap-3">
        {keep}
        <SubmitButton variant={tone} pending={pending} pendingText={pendingLabel}>
          {confirmLabel}
        </SubmitButton>
      </div>
    </FormComponent>
  );
}

type ConfirmFormProps = {
  action: string;
  hidden: Record<string, string>;
  message: ReactNode;
  confirmLabel: string;
  pendingLabel: string;
  /** "primary" for a step that grants rather than takes away (Make Admin). */
  tone?: "danger" | "primary";
};

/** A confirmation form inside the modal: posted by a fetcher, so an error stays in the modal. */
export function ConfirmFetcherForm({ onKeep, ...props }: ConfirmFormProps & { onKeep: () => void }) {
  const fetcher = useFetcher();
  return (
    <ConfirmFormBody
      {...props}
      FormComponent={fetcher.Form}
      pending={fetcher.state !== "idle"}
      errors={replyErrors(fetcher.data)}
      keep={
        <Button type="button" variant="secondary" onClick={onKeep}>
          Keep it
        </Button>
      }
    />
  );
}

/** The same confirmation as a page, for browsers without JavaScript. */
export function ConfirmPageForm({ backTo, ...props }: ConfirmFormProps & { backTo: string }) {
  const navigation = useNavigation();
  return (
    <ConfirmFormBody
      {...props}
      FormComponent={Form}
      pending={navigation.state === "submitting" && navigation.formAction === props.action}
      errors={[]}
      keep={
        <Link
          to={backTo}
          className="inline-flex items-center rounded border border-brand-700 px-4 py-2 font-medium text-brand-700 hover:bg-brand-50"
        >
          Keep it
        </Link>
      }
    />
  );
}
