/**
 * Credit notes whose credit the shop still holds (the ledger's), each with its Pay out form: staff
 * pay the credit to the customer's bank and give the transfer's reference. Shop Today lists them by
 * account; a company's record lists its own.
 */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import type { LedgerCurrency } from "~/domain/ledger";
import { formatDay } from "~/domain/order-states";
import { formatQuantity } from "~/format";
import { payoutSchema } from "~/forms/order-forms";
import { ledgerMoney, OwedBothWays, type OwedFigures } from "./account-owed";
import { ErrorList, Field, SubmitButton } from "./forms";

export type HeldCredit = {
  orderId: string;
  orderNumber: string;
  noteId: string;
  number: string;
  issuedAt: string;
  currency: LedgerCurrency;
  creditCents: number;
};

/** What a payout form's action answers when it refuses: the note it was for, and Conform's result. */
export type PayoutReply = { intent: "payout"; noteId: string; result: SubmissionResult<string[]> };

const isPayoutReply = (reply: unknown): reply is PayoutReply =>
  typeof reply === "object" && reply !== null && "intent" in reply && reply.intent === "payout" && "noteId" in reply;

/** A credit note's payout form (its reference field), and whether that note's payout is being sent. */
export function usePayoutForm(id: string, noteId: string, lastResult: SubmissionResult<string[]> | null) {
  const [form, fields] = useForm({
    id,
    lastResult,
    constraint: getZodConstraint(payoutSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: payoutSchema }),
  });
  const navigation = useNavigation();
  const pending =
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === "payout" &&
    navigation.formData?.get("creditNoteId") === noteId;
  return { form, fields, pending };
}

function PayoutForm({ credit, reply }: { credit: HeldCredit; reply: PayoutReply | undefined }) {
  const { form, fields, pending } = usePayoutForm(
    `credit-payout-${credit.noteId}`,
    credit.noteId,
    reply?.noteId === credit.noteId ? reply.result : null,
  );
  return (
    <Form method="post" {...getFormProps(form)} className="mt-1 grid gap-x-3 sm:grid-cols-[minmax(0,20rem)_auto]">
      <input type="hidden" name="intent" value="payout" />
      <input type="hidden" name="creditNoteId" value={credit.noteId} />
      <input type="hidden" name="orderId" value={credit.orderId} />
      <Field
        meta={fields.reference}
        label={`Bank transfer reference for ${credit.number}`}
        inputProps={{ autoComplete: "off" }}
      />
      <div className="sm:pt-6">
        <SubmitButton pending={pending} pendingText="Recording…" variant="secondary">
          Pay out<span className="sr-only"> {credit.number}</span>
        </SubmitButton>
      </div>
      <div className="sm:col-span-2">
        <ErrorList id={form.errorId} errors={form.errors} />
      </div>
    </Form>
  );
}

/** An account's credit notes holding credit, each with its Pay out form; or a line saying there are none. */
export function HeldCredits({
  credits,
  reply,
  empty = "No credit note holds credit: nothing to pay out.",
}: {
  credits: HeldCredit[];
  reply?: unknown;
  empty?: string;
}) {
  const ownReply = isPayoutReply(reply) ? reply : undefined;
  if (!credits.length) return <p className="mt-1 text-sm text-slate-700">{empty}</p>;
  return (
    <ul className="mt-2 divide-y divide-slate-200 rounded border border-slate-200 bg-white">
      {credits.map((credit) => (
        <li key={credit.noteId} className="p-3" data-testid="held-credit">
          <p className="text-sm">
            <span className="font-medium">{credit.number}</span> of{" "}
            <Link to={`/dashboard/manageOrders/${credit.orderId}#credit-notes`} className="text-brand-700 underline">
              {credit.orderNumber || "its order"}
            </Link>
            , issued {formatDay(credit.issuedAt)}:{" "}
            <span className="font-semibold" data-testid="held-credit-amount">
              {ledgerMoney(credit.creditCents, credit.currency)}
            </span>{" "}
            to pay out
          </p>
          <PayoutForm credit={credit} reply={ownReply} />
        </li>
      ))}
    </ul>
  );
}

export type AccountToPayOut = { accountId: string; name: string; owed: OwedFigures[]; credits: HeldCredit[] };

/** Shop Today's "Credit to pay out": the accounts the shop owes, the one waiting longest first. */
export function CreditToPayOut({ list }: { list: { accounts: AccountToPayOut[]; total: number } }) {
  const reply = useActionData();
  return (
    <section aria-labelledby="credit-to-pay-out" className="mt-8" data-testid="credit-to-pay-out">
      <h2 id="credit-to-pay-out" className="text-xl font-semibold">
        {`Credit to pay out (${formatQuantity(list.total)})`}
      </h2>
      <p className="text-sm text-slate-600">
        Accounts the shop owes, from the ledger: pay each credit note&apos;s credit to the customer&apos;s bank and give
        the transfer&apos;s reference.
      </p>
      {list.accounts.length === 0 ? (
        <p className="mt-2 text-slate-700">No account holds credit: nothing to pay out.</p>
      ) : (
        <ul className="mt-2 space-y-4">
          {list.accounts.map((account) => (
            <li key={account.accountId} data-testid="account-to-pay-out">
              <h3 className="font-semibold">
                <Link to={`/dashboard/companies/${account.accountId}`} className="text-brand-700 underline">
                  {account.name}
                </Link>
              </h3>
              <p className="text-sm text-slate-700">
                <OwedBothWays owed={account.owed} testId="account-owed" />
              </p>
              <HeldCredits credits={account.credits} reply={reply} />
            </li>
          ))}
        </ul>
      )}
      {list.total > list.accounts.length ? (
        <p className="mt-2 text-sm text-slate-600">
          The {formatQuantity(list.accounts.length)} waiting longest of {formatQuantity(list.total)}; each
          company&apos;s record lists its own.
        </p>
      ) : null}
    </section>
  );
}
