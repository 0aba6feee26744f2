import { getInputProps, getSelectProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import { useFormAction, useNavigation } from "@remix-run/react";
import { createContext, useContext, useEffect, useRef, useState, useSyncExternalStore } from "react";
import type {
  ButtonHTMLAttributes,
  InputHTMLAttributes,
  ReactNode,
  SelectHTMLAttributes,
  TextareaHTMLAttributes,
} from "react";

/**
 * Errors next to a field (or a whole form), in red. The slot keeps its height so clicks never miss,
 * and a margin below it so a message never touches the next field's label.
 */
export function ErrorList({ id, errors }: { id?: string; errors?: string[] | null }) {
  const list = errors?.filter(Boolean) ?? [];
  return (
    <div id={id} className="mb-2 min-h-[1.5rem] pt-1 text-sm text-red-700" aria-live="polite">
      {list.length ? (
        <ul>
          {list.map((error) => (
            <li key={error}>{error}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

const inputClass =
  "block min-h-11 w-full rounded border border-slate-400 bg-white px-3 py-2 text-slate-900 placeholder:text-slate-500 read-only:bg-slate-100 aria-[invalid=true]:border-red-700";

type InputType = "text" | "email" | "password" | "number" | "url" | "tel" | "hidden";

type InputOptions = Parameters<typeof getInputProps>[1];

// Which constraint attributes HTML allows on which input types (the HTML standard's input type table).
const TAKES_LENGTH_AND_PATTERN = new Set(["text", "search", "url", "tel", "email", "password"]);
const TAKES_RANGE = new Set(["date", "month", "week", "time", "datetime-local", "number", "range"]);
const TAKES_NO_REQUIRED = new Set(["hidden", "range", "color", "submit", "reset", "button", "image"]);

/**
 * Conform's input props without the constraints the schema implies but HTML does not allow on this
 * type of input (a hidden field's maxLength, a radio button's min and max, a date's pattern):
 * browsers ignore them, the W3C checker counts them as errors. The server's schema still checks.
 */
export function inputAttributes<Schema, Options extends InputOptions>(
  meta: FieldMetadata<Schema, Record<string, unknown>, string[]>,
  options: Options,
) {
  const props: ReturnType<typeof getInputProps<Schema, Options>> = getInputProps(meta, options);
  const { maxLength, minLength, pattern, min, max, step, required, ...rest } = props;
  return {
    ...rest,
    ...(TAKES_LENGTH_AND_PATTERN.has(options.type) ? { maxLength, minLength, pattern } : {}),
    ...(TAKES_RANGE.has(options.type) ? { min, max, step } : {}),
    ...(TAKES_NO_REQUIRED.has(options.type) ? {} : { required }),
  };
}

/**
 * Conform's select props for a select whose first option is a real choice: it always has a value,
 * and HTML allows `required` only on a select whose empty first option asks for a choice.
 */
export function selectAttributesWithoutPlaceholder<Schema>(
  meta: FieldMetadata<Schema, Record<string, unknown>, string[]>,
) {
  const { required: _alwaysChosen, ...props } = getSelectProps(meta);
  return props;
}

const FirstErrorClaim = createContext<{ taken: boolean } | null>(null);

/**
 * The page's first field in error is rendered with `autofocus`: a page the server sends back with
 * errors (without JavaScript) opens with the focus on it, as Conform moves it there with JavaScript.
 * HTML allows one autofocus a page: the first field (input, select or text area) in error to render (in document order on the
 * server) takes it, once per render of the page (FirstErrorScope in the root).
 */
export function FirstErrorScope({ children }: { children: ReactNode }) {
  const claim = useRef({ taken: false });
  return <FirstErrorClaim.Provider value={claim.current}>{children}</FirstErrorClaim.Provider>;
}

function useFocusIfFirstError(meta: { errors?: string[] }) {
  const claim = useContext(FirstErrorClaim);
  if (!meta.errors?.length || !claim || claim.taken) return {};
  claim.taken = true;
  return { autoFocus: true };
}

/** Label, input and error list, wired by Conform (id, name, aria-invalid, aria-describedby, constraints). */
export function Field({
  meta,
  label,
  type = "text",
  inputProps,
  help,
  className,
}: {
  meta: FieldMetadata<string | number | undefined | null>;
  label: ReactNode;
  type?: InputType;
  inputProps?: InputHTMLAttributes<HTMLInputElement>;
  help?: ReactNode;
  className?: string;
}) {
  // The attributes follow the type the input really gets (inputProps may set one, such as a date).
  const { key, ...props } = inputAttributes(meta, { type: (inputProps?.type as InputType | undefined) ?? type });
  const focus = useFocusIfFirstError(meta);
  return (
    <div className={className}>
      <label htmlFor={meta.id} className="mb-1 block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input key={key} {...props} {...inputProps} {...focus} className={inputClass} />
      {help ? <p className="mt-1 text-xs text-slate-600 [overflow-wrap:anywhere]">{help}</p> : null}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

const selectClass =
  "block min-h-11 w-full rounded border border-slate-400 bg-white px-3 py-2 text-slate-900 aria-[invalid=true]:border-red-700";

/**
 * Label, select and error list, wired by Conform as Field is; the options are its children.
 * `selectProps` adds to or overrides Conform's attributes (autocomplete, onChange, `required: false`).
 */
export function SelectField<Schema>({
  meta,
  label,
  children,
  selectProps,
  alwaysChosen = false,
  className,
}: {
  meta: FieldMetadata<Schema, Record<string, unknown>, string[]>;
  label: ReactNode;
  children: ReactNode;
  selectProps?: SelectHTMLAttributes<HTMLSelectElement>;
  /** The first option is a real choice, not an empty "Choose…" (selectAttributesWithoutPlaceholder). */
  alwaysChosen?: boolean;
  className?: string;
}) {
  const { key, ...props } = alwaysChosen ? selectAttributesWithoutPlaceholder(meta) : getSelectProps(meta);
  const focus = useFocusIfFirstError(meta);
  return (
    <div className={className}>
      <label htmlFor={meta.id} className="mb-1 block text-sm font-medium text-slate-800">
        {label}
      </label>
      <select key={key} {...props} {...selectProps} {...focus} className={selectClass}>
        {children}
      </select>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

const subscribeToNothing = () => () => {};

/**
 * React 18 puts a text area's server-rendered text back as the page hydrates, over what was typed
 * before the scripts ran (inputs keep theirs): the typed text is read first and put back after.
 */
function useTextTypedBeforeHydration(id: string) {
  const hydrating = useSyncExternalStore(
    subscribeToNothing,
    () => false,
    () => true,
  );
  const [typed] = useState(() => {
    if (!hydrating || typeof document === "undefined") return null;
    const box = document.getElementById(id);
    return box instanceof HTMLTextAreaElement && box.value !== box.defaultValue ? box.value : null;
  });
  const first = useRef(true);
  useEffect(() => {
    if (!first.current) return;
    first.current = false;
    const box = document.getElementById(id);
    if (typed !== null && box instanceof HTMLTextAreaElement) box.value = typed;
  }, [id, typed]);
}

export function TextareaField({
  meta,
  label,
  textareaProps,
  help,
  className,
}: {
  meta: FieldMetadata<string | undefined | null>;
  label: ReactNode;
  textareaProps?: TextareaHTMLAttributes<HTMLTextAreaElement>;
  /** A hint under the box, above the errors (so any number of errors never covers it). */
  help?: { id: string; text: ReactNode };
  className?: string;
}) {
  const { key, ...props } = getTextareaProps(meta);
  useTextTypedBeforeHydration(meta.id);
  const describedBy = help ? [props["aria-describedby"], help.id].filter(Boolean).join(" ") : undefined;
  const focus = useFocusIfFirstError(meta);
  return (
    <div className={className}>
      <label htmlFor={meta.id} className="mb-1 block text-sm font-medium text-slate-800">
        {label}
      </label>
      <textarea
        key={key}
        rows={4}
        {...props}
        {...(describedBy ? { "aria-describedby": describedBy } : {})}
        {...textareaProps}
        {...focus}
        className={inputClass}
      />
      {help ? (
        <p id={help.id} className="mt-1 text-xs text-slate-600 [overflow-wrap:anywhere]">
          {help.text}
        </p>
      ) : null}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

/** True while this page's form (or the given action) is being submitted. */
export function useIsPending({
  formAction,
  formMethod = "POST",
}: { formAction?: string; formMethod?: "POST" | "GET" | "PUT" | "PATCH" | "DELETE" } = {}) {
  const contextual = useFormAction();
  const navigation = useNavigation();
  return (
    navigation.state !== "idle" &&
    navigation.formAction === (formAction ?? contextual) &&
    navigation.formMethod === formMethod
  );
}

const buttonVariants = {
  primary: "bg-brand-700 text-white hover:bg-brand-800 disabled:bg-slate-400",
  danger: "bg-red-700 text-white hover:bg-red-800 disabled:bg-slate-400",
  secondary: "border border-brand-700 text-brand-700 hover:bg-brand-50 disabled:opacity-50",
};

export function Button({
  variant = "primary",
  className = "",
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: keyof typeof buttonVariants }) {
  return (
    <button
      {...props}
      className={`inline-flex min-h-11 items-center justify-center gap-2 rounded px-4 py-2 font-medium disabled:cursor-not-allowed ${buttonVariants[variant]} ${className}`}
    />
  );
}

/** A submit button that says it is working while its form is pending. */
export function SubmitButton({
  pending,
  pendingText,
  children,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  pending: boolean;
  pendingText?: string;
  variant?: keyof typeof buttonVariants;
}) {
  return (
    <Button
      type="submit"
      aria-disabled={pending || undefined}
      data-pending-text={pendingText ?? "Working…"}
      {...props}
      disabled={props.disabled}
    >
      {pending ? (
        <>
          <span
            aria-hidden="true"
            className="h-4 w-4 animate-spin rounded-full border-2 border-current border-t-transparent"
          />
          {pendingText ?? "Working…"}
        </>
      ) : (
        children
      )}
    </Button>
  );
}
