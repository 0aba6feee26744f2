import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { redirectWithSuccess } from "~/services/toast.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { inputAttributes, ErrorList, SubmitButton, TextareaField, useIsPending } from "~/components/forms";
import { createReview, DEFAULT_AVATAR } from "~/models/review.server";
import { requireCustomer } from "~/services/guards.server";
import { DEFAULT_RATING, REVIEW_MAX_LENGTH, reviewSchema } from "~/forms/shop-forms";
import { parseForm, readForm } from "~/services/form.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCustomer(request);
  return data(
    { reviewer: { name: user.name, email: user.email, img: user.photoUrl || DEFAULT_AVATAR } },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireCustomer(request);
  const submission = parseForm(await readForm(request), { schema: reviewSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  await createReview({ user, ...submission.value });
  return redirectWithSuccess("/", "Thank you! Your review is on the home page.");
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

const RATINGS = [5, 4, 3, 2, 1] as const;

export default function AddReview() {
  const { reviewer } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "review",
    lastResult,
    constraint: getZodConstraint(reviewSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: { rating: String(DEFAULT_RATING) },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: reviewSchema }),
  });
  const isPending = useIsPending();

  return (
    <div className="mx-auto max-w-2xl px-4 py-8">
      <h1 className="text-2xl font-bold">Add A Review</h1>
      <div className="mt-4 flex items-center gap-4 rounded border border-slate-200 bg-white p-4">
        <img
          src={reviewer.img}
          alt=""
          width={56}
          height={56}
          className="h-14 w-14 rounded-full border border-slate-200 object-cover"
        />
        <div className="min-w-0">
          <p className="font-semibold" data-testid="reviewer-name">
            {reviewer.name}
          </p>
          <p className="break-all text-sm text-slate-600">{reviewer.email}</p>
        </div>
      </div>
      <p className="mt-2 text-sm text-slate-600">
        Your name, email and picture come from your profile. You have one review on the home page at a time: posting a
        new one replaces your earlier one.
      </p>

      <Form method="post" className="mt-6 space-y-2" {...getFormProps(form)}>
        <fieldset aria-describedby={fields.rating.errorId}>
          <legend className="mb-1 text-sm font-medium text-slate-800">Rating</legend>
          {/*
            The stars are radio buttons, listed 5..1 and shown 1..5 (flex-row-reverse), so that a
            checked or hovered star lights up itself and the lower ones with sibling selectors only.
          */}
          <div className="flex w-max flex-row-reverse justify-end gap-1 text-4xl leading-none text-slate-300 [&>input:checked~label]:text-amber-500 [&>input:focus-visible+label]:outline [&>input:focus-visible+label]:outline-2 [&>input:focus-visible+label]:outline-brand-700 [&>label:hover]:text-amber-400 [&>label:hover~label]:text-amber-400">
            {RATINGS.map((rating) => {
              const { key, ...props } = inputAttributes(fields.rating, { type: "radio", value: String(rating) });
              return [
                <input key={`${key ?? ""}-input-${rating}`} {...props} id={`rating-${rating}`} className="sr-only" />,
                <label
                  key={`label-${rating}`}
                  htmlFor={`rating-${rating}`}
                  className="inline-flex h-11 w-11 cursor-pointer items-center justify-center rounded"
                >
                  <span aria-hidden="true">★</span>
                  <span className="sr-only">
                    {rating} {rating === 1 ? "star" : "stars"}
                  </span>
                </label>,
              ];
            })}
          </div>
          <ErrorList id={fields.rating.errorId} errors={fields.rating.errors} />
        </fieldset>
        <TextareaField
          meta={fields.description}
          label="Description"
          textareaProps={{ rows: 5, maxLength: REVIEW_MAX_LENGTH }}
        />
        <ErrorList id={form.errorId} errors={form.errors} />
        <SubmitButton pending={isPending} pendingText="Posting…">
          Add A Review
        </SubmitButton>
      </Form>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Add A Review — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
