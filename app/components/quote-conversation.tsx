import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, useNavigation } from "@remix-run/react";
import { ErrorList, SubmitButton, TextareaField } from "~/components/forms";
import { MAX_QUOTE_MESSAGE, type QuoteMessage } from "~/domain/quotes";
import { revisionSchema } from "~/forms/quote-forms";
import { formatDateTime, formatQuantity } from "~/format";

const KIND_WORDS: Record<string, string> = {
  request: "with the request",
  sent: "with a version",
  revision: "asked for a revision",
  declined: "declined the request",
};

/**
 * The messages kept on the quote, oldest first: the buyer's and the shop's, with who and when. Staff
 * read which side wrote each; the buyer reads the shop's as PartsWorks'.
 */
export function QuoteConversation({ messages, forStaff = false }: { messages: QuoteMessage[]; forStaff?: boolean }) {
  return (
    <section aria-labelledby="conversation-heading" className="mt-8">
      <h2 id="conversation-heading" className="text-xl font-semibold">
        Conversation
      </h2>
      {messages.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600">No messages yet.</p>
      ) : (
        <ol className="mt-2 space-y-3" data-testid="quote-messages">
          {messages.map((message, index) => (
            <li
              key={index}
              className={`rounded border p-3 text-sm ${message.fromShop ? "border-brand-100 bg-brand-50" : "border-slate-200 bg-white"}`}
            >
              <p className="text-xs text-slate-700">
                <span className="font-semibold">
                  {message.authorName}
                  {forStaff
                    ? message.fromShop
                      ? " (the shop)"
                      : " (the buyer)"
                    : message.fromShop
                      ? " (PartsWorks)"
                      : ""}
                </span>{" "}
                {KIND_WORDS[message.kind] ?? ""}, {formatDateTime(message.at)}
              </p>
              <p className="mt-1 whitespace-pre-line [overflow-wrap:anywhere]">{message.text}</p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** "Ask for a revision": what to change, sent to the shop, which prepares a new version. */
export function RevisionForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useForm({
    id: "revision",
    lastResult,
    constraint: getZodConstraint(revisionSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: revisionSchema }),
  });
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === "revision";
  return (
    <section aria-labelledby="revision-heading" className="mt-6 max-w-xl">
      <h2 id="revision-heading" className="text-lg font-semibold">
        Ask for a revision
      </h2>
      <p className="text-sm text-slate-600">
        Another quantity, a price, a date? Tell us; we send a new version and this one can no longer be accepted.
      </p>
      <Form method="post" className="mt-2" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="revision" />
        <TextareaField
          meta={fields.message}
          label="What should change"
          textareaProps={{ rows: 3, maxLength: MAX_QUOTE_MESSAGE }}
          help={{ id: "revision-help", text: `Up to ${formatQuantity(MAX_QUOTE_MESSAGE)} characters.` }}
        />
        <ErrorList id={form.errorId} errors={form.errors} />
        <SubmitButton variant="secondary" pending={pending} pendingText="Sending…">
          Ask for a revision
        </SubmitButton>
      </Form>
    </section>
  );
}
