/** A saved list's lines: each with its quantity to change, a way to remove it, and a box to choose it for the cart. */
import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, Link, useFetcher, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { Button, ErrorList, Field, SubmitButton } from "~/components/forms";
import { DataTable, type Column } from "~/components/ui/data-table";
import { listQuantity, type ListReply } from "~/forms/saved-list-forms";
import { formatQuantity } from "~/format";

type Line = { partId: string; partNumber: string; name: string; quantity: number };

const quantitySchema = z.object({ quantity: listQuantity });
export const CHOSEN_FORM = "cart-chosen";

export function SavedListLines({
  listPath,
  lines,
  mayEdit,
  reply,
}: {
  listPath: string;
  lines: Line[];
  mayEdit: boolean;
  reply?: ListReply;
}) {
  const columns: Column[] = [
    { label: "Part" },
    { label: "Choose" },
    { label: "Quantity" },
    ...(mayEdit ? [{ label: <span className="sr-only">Remove</span> }] : []),
  ];
  if (lines.length === 0) {
    return (
      <p className="mt-4 text-slate-700" data-testid="empty-list">
        This list has no lines yet{mayEdit ? ": add a part by its number below." : "."}
      </p>
    );
  }
  return (
    <DataTable caption="The lines of the list" columns={columns} className="mt-4" testId="list-lines">
      {lines.map((line) => (
        <LineRow
          key={line.partId}
          line={line}
          listPath={listPath}
          mayEdit={mayEdit}
          reply={reply?.partId === line.partId ? reply : undefined}
        />
      ))}
    </DataTable>
  );
}

function LineRow({
  line,
  listPath,
  mayEdit,
  reply,
}: {
  line: Line;
  listPath: string;
  mayEdit: boolean;
  reply: ListReply | undefined;
}) {
  const updater = useFetcher<ListReply>();
  const remover = useFetcher<ListReply>();
  const [form, fields] = useForm({
    id: `list-line-${line.partId}`,
    lastResult: updater.data?.result ?? (reply?.intent === "quantity" ? reply.result : undefined),
    constraint: getZodConstraint(quantitySchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: { quantity: String(line.quantity) },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: quantitySchema }),
  });
  const removeErrors =
    remover.data?.result.error?.[""] ?? (reply?.intent === "remove" ? reply.result.error?.[""] : null);
  return (
    <tr data-testid={`list-line-${line.partNumber}`}>
      <th scope="row" className="px-3 py-2 align-top font-medium">
        <Link to={`/parts/${line.partId}`} className="text-brand-700 underline hover:text-brand-800">
          {line.name}
        </Link>
        <span className="block font-mono text-xs font-normal text-slate-600">{line.partNumber}</span>
      </th>
      <td className="px-3 py-2 align-top" data-label="Choose">
        <span className="flex min-h-11 items-center gap-2">
          <input
            type="checkbox"
            name="chosen"
            value={line.partId}
            form={CHOSEN_FORM}
            id={`choose-${line.partId}`}
            className="h-5 w-5"
          />
          <label htmlFor={`choose-${line.partId}`} className="text-sm">
            <span className="sr-only">Choose {line.name} for the cart</span>
            <span aria-hidden="true">For the cart</span>
          </label>
        </span>
      </td>
      <td className="px-3 py-2 align-top max-md:col-span-2" data-label="Quantity">
        {mayEdit ? (
          <>
            <updater.Form method="post" action={listPath} className="flex items-start gap-2" {...getFormProps(form)}>
              <input type="hidden" name="intent" value="quantity" />
              <input type="hidden" name="partId" value={line.partId} />
              <Field
                className="w-32"
                meta={fields.quantity}
                label={<span className="sr-only">Quantity of {line.name}</span>}
                type="number"
                inputProps={{ step: 1, inputMode: "numeric" }}
              />
              <SubmitButton
                variant="secondary"
                className="px-3 py-2 text-sm"
                pending={updater.state !== "idle"}
                pendingText="Saving…"
                aria-label={`Save the quantity of ${line.name}`}
              >
                Save
              </SubmitButton>
            </updater.Form>
            <ErrorList id={form.errorId} errors={form.errors} />
          </>
        ) : (
          <span data-testid="line-quantity">{formatQuantity(line.quantity)}</span>
        )}
      </td>
      {mayEdit ? (
        <td className="px-3 py-2 align-top">
          <remover.Form method="post" action={listPath}>
            <input type="hidden" name="intent" value="remove" />
            <input type="hidden" name="partId" value={line.partId} />
            <Button
              type="submit"
              variant="secondary"
              className="px-3 py-2 text-sm"
              disabled={remover.state !== "idle"}
              aria-label={`Remove ${line.name} from the list`}
            >
              {remover.state !== "idle" ? "Removing…" : "Remove"}
            </Button>
          </remover.Form>
          <ErrorList errors={removeErrors} />
        </td>
      ) : null}
    </tr>
  );
}

/** The two ways into the cart: every line, or the lines ticked above. */
export function ListCartForms({ errors }: { errors: string[] }) {
  const navigation = useNavigation();
  const pending = (intent: string) =>
    navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  return (
    <div className="mt-4">
      <div className="flex flex-wrap gap-3">
        <Form method="post">
          <input type="hidden" name="intent" value="cart-all" />
          <SubmitButton pending={pending("cart-all")} pendingText="Adding…">
            Add all to cart
          </SubmitButton>
        </Form>
        <Form method="post" id={CHOSEN_FORM}>
          <input type="hidden" name="intent" value="cart-chosen" />
          <SubmitButton variant="secondary" pending={pending("cart-chosen")} pendingText="Adding…">
            Add chosen lines to cart
          </SubmitButton>
        </Form>
      </div>
      <ErrorList errors={errors} />
    </div>
  );
}
