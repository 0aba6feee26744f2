import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { useFetcher, useLocation } from "@remix-run/react";
import { ErrorList, Field, SubmitButton } from "~/components/forms";
import { CART_PATH, cartLineSchema } from "~/utils/cart-forms";

type Part = { id: string; name: string; minOrderQuantity: number; availableQuantity: number };

/**
 * Add to cart, from the parts list and the part page: the quantity starts at the part's minimum.
 * A fetcher form: with JavaScript the page stays (the toast says it worked, the error shows here);
 * without it, a plain POST that comes back to this page with the toast.
 */
export function AddToCartForm({ part, compact = false }: { part: Part; compact?: boolean }) {
  const fetcher = useFetcher<{ result: SubmissionResult<string[]> }>();
  const location = useLocation();
  const [form, fields] = useForm({
    id: `add-to-cart-${part.id}`,
    lastResult: fetcher.data?.result,
    constraint: getZodConstraint(cartLineSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: { partId: part.id, quantity: String(part.minOrderQuantity) },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: cartLineSchema }),
  });
  return (
    <fetcher.Form method="post" action={CART_PATH} {...getFormProps(form)} className={compact ? "mt-3" : "mt-4"}>
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="partId" value={part.id} />
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      <div className="flex items-start gap-2">
        <Field
          className={compact ? "w-28" : "w-40"}
          meta={fields.quantity}
          label={compact ? <span className="sr-only">Quantity of {part.name}</span> : "Units for the cart"}
          type="number"
          inputProps={{ step: 1, inputMode: "numeric" }}
        />
        <SubmitButton
          variant="secondary"
          pending={fetcher.state !== "idle"}
          pendingText="Adding…"
          className={compact ? "flex-1" : ""}
          style={compact ? undefined : { marginTop: "1.5rem" }}
        >
          Add to cart<span className="sr-only"> {part.name}</span>
        </SubmitButton>
      </div>
      <ErrorList id={form.errorId} errors={form.errors} />
    </fetcher.Form>
  );
}
