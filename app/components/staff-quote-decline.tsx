/**
 * Staff decline a quote request: the reason the buyer is sent, then Decline. The trigger opens a
 * modal; without JavaScript it is a link to the confirmation page, which renders the same form.
 */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, Link, useFetcher } from "@remix-run/react";
import type { ReactNode } from "react";
import { ConfirmDialog, confirmLinkClass } from "~/components/confirm-dialog";
import { Button, ErrorList, SubmitButton, TextareaField } from "~/components/forms";
import { staffQuotePath } from "~/domain/quotes";
import { declineQuoteSchema } from "~/forms/quote-forms";

type Reply = SubmissionResult<string[]> | null | undefined;
export type Declining = { id: string; label: string; userName: string };

export const declineQuotePath = (quoteId: string) => `${staffQuotePath(quoteId)}/decline`;

function DeclineQuoteFields({
  quote,
  lastResult,
  pending,
  FormComponent,
  keep,
}: {
  quote: Declining;
  lastResult: Reply;
  pending: boolean;
  FormComponent: typeof Form | ReturnType<typeof useFetcher>["Form"];
  keep: ReactNode;
}) {
  const [form, fields] = useForm({
    id: `decline-quote-${quote.id}`,
    lastResult,
    constraint: getZodConstraint(declineQuoteSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: declineQuoteSchema }),
  });
  return (
    <FormComponent method="post" action={declineQuotePath(quote.id)} {...getFormProps(form)}>
      <input type="hidden" name="intent" value="decline" />
      <p className="text-slate-800">
        {quote.label} from {quote.userName} ends here: nothing more can be sent on it. {quote.userName} is sent your
        reason by email.
      </p>
      <TextareaField
        className="mt-4"
        meta={fields.reason}
        label={`Reason for ${quote.userName}`}
        textareaProps={{ rows: 3 }}
      />
      <ErrorList id={form.errorId} errors={form.errors} />
      <div className="mt-2 flex flex-wrap justify-end gap-3">
        {keep}
        <SubmitButton variant="danger" pending={pending} pendingText="Declining…">
          Decline {quote.label}
        </SubmitButton>
      </div>
    </FormComponent>
  );
}

/** The Decline trigger on the quote's page, with its modal. */
export function DeclineQuote({ quote }: { quote: Declining }) {
  return (
    <ConfirmDialog
      label="Decline…"
      accessibleLabel={`Decline ${quote.label}`}
      href={declineQuotePath(quote.id)}
      title={`Decline ${quote.label}?`}
      className={confirmLinkClass}
    >
      {(close) => <DeclineDialogForm quote={quote} onKeep={close} />}
    </ConfirmDialog>
  );
}

/** Inside the modal: a fetcher, so a missing reason keeps the modal open with its message. */
function DeclineDialogForm({ quote, onKeep }: { quote: Declining; onKeep: () => void }) {
  const fetcher = useFetcher<SubmissionResult<string[]>>();
  return (
    <DeclineQuoteFields
      quote={quote}
      lastResult={fetcher.data}
      pending={fetcher.state !== "idle"}
      FormComponent={fetcher.Form}
      keep={
        <Button type="button" variant="secondary" onClick={onKeep}>
          Keep it
        </Button>
      }
    />
  );
}

/** On the confirmation page (no JavaScript needed). */
export function DeclineQuotePageForm({
  quote,
  lastResult,
  pending,
}: {
  quote: Declining;
  lastResult: Reply;
  pending: boolean;
}) {
  return (
    <DeclineQuoteFields
      quote={quote}
      lastResult={lastResult}
      pending={pending}
      FormComponent={Form}
      keep={
        <Link
          to={staffQuotePath(quote.id)}
          className="inline-flex min-h-11 items-center rounded border border-brand-700 px-4 py-2 font-medium text-brand-700 hover:bg-brand-50"
        >
          Keep it
        </Link>
      }
    />
  );
}
