import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { useFetcher, useLocation } from "@remix-run/react";
import type { ComponentProps, ReactNode } from "react";
import { ErrorList, Field, SubmitButton } from "~/components/forms";
import { CART_PATH, cartLineSchema } from "~/utils/cart-forms";
import { usePageHydrates } from "~/utils/hydrated";

type Part = { id: string; name: string; minOrderQuantity: number; availableQuantity: number };
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
export function AddToCartForm(props: { part: Part; compact?: boolean }) {
  return usePageHydrates() ? <LiveAddToCartForm {...props} /> : <StaticAddToCartForm {...props} />;
}

function LiveAddToCartForm({ part, compact = false }: { part: Part; compact?: boolean }) {
  const fetcher = useFetcher<{ result: SubmissionResult<string[]> }>();
  const [form, fields] = useForm({
    id: `add-to-cart-${part.id}`,
    lastResult: fetcher.data?.result,
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

function StaticAddToCartForm({ part, compact = false }: { part: Part; compact?: boolean }) {
  const formId = `add-to-cart-${part.id}`;
  // What Conform's metadata gives Field for this form before any submission.
  const quantity = {
    id: `${formId}-quantity`,
    name: "quantity",
    formId,
    errorId: `${formId}-quantity-error`,
    initialValue: String(part.minOrderQuantity),
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
  return (
    <>
      <input type="hidden" name="intent" value="add" />
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
