import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, useNavigation } from "@remix-run/react";
import { extendHoldSchema, MAX_HOLD_EXTENSION_DAYS, unpaidCapsSchema } from "~/forms/hold-forms";
import { CURRENCIES } from "~/content/currencies";
import { formatDateTime } from "~/format";
import { ErrorList, Field, SubmitButton } from "./forms";
import { useCurrency, useMoney } from "./money";

type Reply = { intent: string; result: SubmissionResult<string[]> } | undefined;

const pendingFor = (navigation: ReturnType<typeof useNavigation>, intent: string) =>
  navigation.state === "submitting" && navigation.formData?.get("intent") === intent;

/**
 * "Stock held for you until …": on the order page and the pay screen of an unpaid card order, and of
 * an order waiting for an owner's approval (`waiting`), whose hold ends the same way.
 */
export function HoldNotice({
  holdUntil,
  who = "you",
  waiting = false,
}: {
  holdUntil: string | null;
  who?: "you" | "customer";
  waiting?: boolean;
}) {
  if (!holdUntil) return null;
  const needed = waiting ? "approved" : "paid";
  return (
    <p data-testid="hold-until" className="mt-3 rounded border-l-4 border-amber-600 bg-amber-50 p-3 text-amber-900">
      {who === "you" ? "We hold the stock for this order until " : "Stock held for the customer until "}
      <strong>{formatDateTime(holdUntil)}</strong>.{" "}
      {who === "you"
        ? `If it is not ${needed} by then, it is cancelled and the stock goes back on sale.`
        : `Not ${needed} by then, the order expires and its stock goes back on sale.`}
    </p>
  );
}

/** Admin: hold one unpaid order's stock longer (a plain POST without JavaScript). */
export function ExtendHoldForm({ reply }: { reply: Reply }) {
  const [form, fields] = useForm({
    id: "extend-hold",
    lastResult: reply?.intent === "extend-hold" ? reply.result : null,
    constraint: getZodConstraint(extendHoldSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: { days: "3" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: extendHoldSchema }),
  });
  const pending = pendingFor(useNavigation(), "extend-hold");
  return (
    <Form method="post" {...getFormProps(form)} className="mt-2 flex flex-wrap items-end gap-3">
      <input type="hidden" name="intent" value="extend-hold" />
      <ErrorList id={form.errorId} errors={form.errors} />
      <Field
        meta={fields.days}
        label="Hold longer by (days)"
        type="number"
        inputProps={{ min: 1, max: MAX_HOLD_EXTENSION_DAYS, inputMode: "numeric" }}
        className="w-48"
      />
      <SubmitButton pending={pending} pendingText="Extending…" className="mb-6">
        Extend the hold
      </SubmitButton>
    </Form>
  );
}

/** Admin, on a company's record: its own caps on orders awaiting card payment, in its currency (`InCurrency`). */
export function UnpaidCapsForm({
  reply,
  caps,
  defaults,
}: {
  reply: Reply;
  caps: { orders: number | null; valueCents: number | null };
  defaults: { orders: number; valueCents: number; verified: boolean };
}) {
  const currency = useCurrency();
  const money = useMoney();
  const minor = 10 ** CURRENCIES[currency].minorUnits;
  const [form, fields] = useForm({
    id: "unpaid-caps",
    lastResult: reply?.intent === "unpaid-caps" ? reply.result : null,
    constraint: getZodConstraint(unpaidCapsSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: {
      orders: caps.orders === null ? "" : String(caps.orders),
      value: caps.valueCents === null ? "" : String(Math.round(caps.valueCents / minor)),
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: unpaidCapsSchema }),
  });
  const pending = pendingFor(useNavigation(), "unpaid-caps");
  const shop = `the shop's default for ${defaults.verified ? "a verified" : "an unverified"} email`;
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-x-4 sm:grid-cols-2">
      <input type="hidden" name="intent" value="unpaid-caps" />
      <div className="sm:col-span-2">
        <ErrorList id={form.errorId} errors={form.errors} />
      </div>
      <Field
        meta={fields.orders}
        label="Orders awaiting card payment (most at once)"
        type="number"
        inputProps={{ inputMode: "numeric", min: 1 }}
        help={`Empty: ${shop}, ${defaults.orders}.`}
      />
      <Field
        meta={fields.value}
        label={`Value awaiting card payment (whole ${CURRENCIES[currency].units})`}
        type="number"
        inputProps={{ inputMode: "numeric", min: 1 }}
        help={`Empty: ${shop}, ${money(defaults.valueCents)}.`}
      />
      <div className="sm:col-span-2">
        <SubmitButton pending={pending} pendingText="Saving…">
          Save the caps
        </SubmitButton>
      </div>
    </Form>
  );
}
