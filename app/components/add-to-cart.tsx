import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { useFetcher, useLocation } from "@remix-run/react";
import type { ComponentProps, ReactNode } from "react";
import { ErrorList, Field, SubmitButton } from "~/components/forms";
import { CART_PATH, cartLineSchema } from "~/forms/cart-forms";
import { useHydrated, usePageHydrates } from "~/hooks/hydrated";

type Part = { id: string; name: string; minOrderQuantity: number; availableQuantity: number };
/** What the cart refused, posted without JavaScript: the quantity typed and why. */
export type AddToCartRefusal = { quantity: string; message: string };
type FieldMeta = ComponentProps<typeof Field>["meta"];

/** The schema's constraints (required, min, max), worked out once rather than at every render. */
const constraint = getZodConstraint(cartLineSchema);

/**
 * Add to cart, from the parts list and the part page: the quantity starts at the part's minimum.
 * A fetcher form: with JavaScript the page stays where it is (the toast says it worked, the error
 * shows here); without it, a plain POST that comes back to this page with the toast.
 *
 * On a page sent without the framework's JavaScript (/parts for visitors) no script will ever
 * drive the form, so it is rendered in its first state directly, with the same markup and without
 * Conform's form state: twelve cards of Conform forms were a third of that page's rendering time.
 */
export function AddToCartForm(props: { part: Part; compact?: boolean; refusal?: AddToCartRefusal | null }) {
  return usePageHydrates() ? <LiveAddToCartForm {...props} /> : <StaticAddToCartForm {...props} />;
}

/** A refusal as the reply Conform would have had from the cart, so the form shows it by the field. */
function refusalResult(part: Part, refusal: AddToCartRefusal): SubmissionResult<string[]> {
  return {
    status: "error",
    initialValue: { intent: "add", partId: part.id, quantity: refusal.quantity },
    error: { quantity: [refusal.message] },
  };
}

function LiveAddToCartForm({
  part,
  compact = false,
  refusal,
}: {
  part: Part;
  compact?: boolean;
  refusal?: AddToCartRefusal | null;
}) {
  const fetcher = useFetcher<{ result: SubmissionResult<string[]> }>();
  const [form, fields] = useForm({
    id: `add-to-cart-${part.id}`,
    lastResult: fetcher.data?.result ?? (refusal ? refusalResult(part, refusal) : undefined),
    constraint,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: { partId: part.id, quantity: String(part.minOrderQuantity) },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: cartLineSchema }),
  });
  return (
    <fetcher.Form
      method="post"
      action={CART_PATH}
      {...getFormProps(form)}
      preventScrollReset
      className={compact ? "mt-3" : "mt-4"}
    >
      <AddToCartFields part={part} compact={compact} quantity={fields.quantity} pending={fetcher.state !== "idle"} />
      <ErrorList id={form.errorId} errors={form.errors} />
    </fetcher.Form>
  );
}

function StaticAddToCartForm({
  part,
  compact = false,
  refusal,
}: {
  part: Part;
  compact?: boolean;
  refusal?: AddToCartRefusal | null;
}) {
  const formId = `add-to-cart-${part.id}`;
  // What Conform's metadata gives Field for this form before any submission (or after a refusal).
  const quantity = {
    id: `${formId}-quantity`,
    name: "quantity",
    formId,
    errorId: `${formId}-quantity-error`,
    descriptionId: `${formId}-quantity-description`,
    initialValue: refusal?.quantity ?? String(part.minOrderQuantity),
    valid: !refusal,
    errors: refusal ? [refusal.message] : undefined,
    ...constraint.quantity,
  } as unknown as FieldMeta;
  return (
    <form method="post" action={CART_PATH} id={formId} noValidate className={compact ? "mt-3" : "mt-4"}>
      <AddToCartFields part={part} compact={compact} quantity={quantity} pending={false} />
      <ErrorList id={`${formId}-error`} />
    </form>
  );
}

function AddToCartFields({
  part,
  compact,
  quantity,
  pending,
}: {
  part: Part;
  compact: boolean;
  quantity: FieldMeta;
  pending: boolean;
}): ReactNode {
  const location = useLocation();
  const hydrated = useHydrated();
  return (
    <>
      <input type="hidden" name="intent" value="add" />
      {/* Said only by a page whose script runs (a fetcher): a refusal then answers here, not by a redirect. */}
      {hydrated ? <input type="hidden" name="enhanced" value="1" /> : null}
      <input type="hidden" name="partId" value={part.id} />
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      <div className="flex items-start gap-2">
        <Field
          className={compact ? "w-28" : "w-40"}
          meta={quantity}
          label={compact ? <span className="sr-only">Quantity of {part.name}</span> : "Units for the cart"}
          type="number"
          inputProps={{ step: 1, inputMode: "numeric" }}
        />
        <SubmitButton
          variant="secondary"
          pending={pending}
          pendingText="Adding…"
          className={compact ? "flex-1" : ""}
          style={compact ? undefined : { marginTop: "1.5rem" }}
        >
          Add to cart<span className="sr-only"> {part.name}</span>
        </SubmitButton>
      </div>
    </>
  );
}
