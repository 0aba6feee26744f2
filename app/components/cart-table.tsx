/** The cart's lines: each with its price, its quantity to change and a way to remove it, and the net total. */
import { useMoney } from "~/components/money";
import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Link, useFetcher } from "@remix-run/react";
import { Button, ErrorList, Field, SubmitButton } from "~/components/forms";
import { PriceWithList } from "~/components/prices";
import { DataTable, type Column } from "~/components/ui/data-table";
import { CART_PATH, cartLineSchema, type CartReply } from "~/forms/cart-forms";
import { formatQuantity } from "~/format";

/** A line of the cart at the customer's price (a part no longer sold has none). */
type CartLineView = {
  partId: string;
  quantity: number;
  part: { name: string; partNumber: string; minOrderQuantity: number; availableQuantity: number } | null;
  unitPriceCents: number | null;
  listPriceCents: number | null;
  lineTotalCents: number;
  backorder: string | null;
  problem: { message: string } | null;
};

type CartView = { lines: CartLineView[]; totalQuantity: number; netCents: number };

const CART_COLUMNS: Column[] = [
  { label: "Part" },
  { label: "Unit price", align: "right" },
  { label: "Quantity" },
  { label: "Line total", align: "right" },
  { label: <span className="sr-only">Remove</span> },
];

export function CartTable({ cart, actionData }: { cart: CartView; actionData: CartReply | undefined }) {
  const money = useMoney();
  return (
    <DataTable
      caption="The lines of your cart"
      columns={CART_COLUMNS}
      className="mt-4"
      footer={
        <>
          <tr>
            <th scope="row" colSpan={3} className="px-3 py-2 text-right font-semibold">
              Net, before tax ({formatQuantity(cart.totalQuantity)} units)
            </th>
            <td className="px-3 py-2 text-right text-base font-semibold" data-testid="cart-net">
              {money(cart.netCents)}
            </td>
            <td />
          </tr>
        </>
      }
    >
      {cart.lines.map((line) => (
        <CartRow
          key={line.partId}
          line={line}
          actionData={actionData?.partId === line.partId ? actionData : undefined}
        />
      ))}
    </DataTable>
  );
}

function CartRow({ line, actionData }: { line: CartLineView; actionData: CartReply | undefined }) {
  const money = useMoney();
  const updater = useFetcher<CartReply>();
  const remover = useFetcher<CartReply>();
  const name = line.part?.name ?? "A part that is no longer sold";
  const lastResult = updater.data?.result ?? (actionData?.intent === "update" ? actionData.result : undefined);
  const [form, fields] = useForm({
    id: `cart-line-${line.partId}`,
    lastResult,
    constraint: getZodConstraint(cartLineSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: { partId: line.partId, quantity: String(line.quantity) },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: cartLineSchema }),
  });
  const removeErrors =
    remover.data?.result.error?.[""] ?? (actionData?.intent === "remove" ? actionData.result.error?.[""] : null);
  return (
    <tr data-testid={`cart-line-${line.part?.partNumber ?? line.partId}`}>
      <th scope="row" className="px-3 py-2 align-top font-medium">
        {line.part ? (
          <Link to={`/parts/${line.partId}`} className="text-brand-700 underline hover:text-brand-800">
            {name}
          </Link>
        ) : (
          name
        )}
        {line.part ? (
          <span className="block font-mono text-xs font-normal text-slate-600">{line.part.partNumber}</span>
        ) : null}
        {line.part ? (
          <span className="block text-xs font-normal text-slate-600">
            {formatQuantity(line.part.minOrderQuantity)} to {formatQuantity(line.part.availableQuantity)} units
          </span>
        ) : null}
        {line.backorder && !line.problem ? (
          <span className="block text-sm font-normal text-amber-900" data-testid="line-backorder">
            {line.backorder}
          </span>
        ) : null}
        {line.problem ? (
          <span className="block text-sm font-normal text-red-700" data-testid="line-problem">
            {line.problem.message}
          </span>
        ) : null}
      </th>
      <td className="px-3 py-2 text-right align-top" data-label="Unit price">
        {line.part && line.unitPriceCents !== null ? (
          <PriceWithList cents={line.unitPriceCents} listCents={line.listPriceCents} />
        ) : (
          "—"
        )}
      </td>
      <td className="px-3 py-2 align-top max-md:col-span-2" data-label="Quantity">
        <updater.Form method="post" action={CART_PATH} className="flex items-start gap-2" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="update" />
          <input type="hidden" name="partId" value={line.partId} />
          <Field
            className="w-32"
            meta={fields.quantity}
            label={<span className="sr-only">Quantity of {name}</span>}
            type="number"
            inputProps={{ step: 1, inputMode: "numeric" }}
          />
          <SubmitButton
            variant="secondary"
            className="px-3 py-2 text-sm"
            pending={updater.state !== "idle"}
            pendingText="Saving…"
            aria-label={`Update the quantity of ${name}`}
          >
            Update
          </SubmitButton>
        </updater.Form>
        <ErrorList id={form.errorId} errors={form.errors} />
      </td>
      <td className="px-3 py-2 text-right align-top" data-label="Line total" data-testid="line-total">
        {money(line.lineTotalCents)}
      </td>
      <td className="px-3 py-2 align-top">
        <remover.Form method="post" action={CART_PATH}>
          <input type="hidden" name="intent" value="remove" />
          <input type="hidden" name="partId" value={line.partId} />
          <Button
            type="submit"
            variant="secondary"
            className="px-3 py-2 text-sm"
            disabled={remover.state !== "idle"}
            aria-label={`Remove ${name} from the cart`}
          >
            {remover.state !== "idle" ? "Removing…" : "Remove"}
          </Button>
        </remover.Form>
        <ErrorList errors={removeErrors} />
      </td>
    </tr>
  );
}
