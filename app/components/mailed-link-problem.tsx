import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod";
import { Form, Link } from "@remix-run/react";
import { SubmitButton, useIsPending } from "~/components/forms";
import { mailedLinkSchema } from "~/forms/account-schemas";

/** The page a mailed link lands on when it cannot be used: what went wrong, and the way back. */
export function MailedLinkProblem({ title, problem, testId }: { title: string; problem: string; testId: string }) {
  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
        <p
          role="alert"
          className="mt-4 rounded border border-red-700 bg-red-50 p-3 text-sm text-red-800"
          data-testid={testId}
        >
          {problem}
        </p>
        <p className="mt-4 text-sm">
          <Link to="/dashboard" className="font-medium text-brand-700 underline hover:text-brand-800">
            Go to My Profile
          </Link>
        </p>
      </div>
    </div>
  );
}

/**
 * The page a mailed link opens when it can be used: it says what the button does, and only the
 * button (a POST) does it. A mail scanner that fetches every link in a message changes nothing.
 */
export function MailedLinkConfirm({
  title,
  text,
  button,
  pendingText,
  token,
  testId,
}: {
  title: string;
  text: string;
  button: string;
  pendingText: string;
  token: string;
  testId: string;
}) {
  const isPending = useIsPending();
  const [form] = useForm({ id: testId, constraint: getZodConstraint(mailedLinkSchema) });
  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
        <p className="mt-4 text-slate-700">{text}</p>
        <Form method="post" {...getFormProps(form)} className="mt-6" data-testid={testId}>
          <input type="hidden" name="token" value={token} />
          <SubmitButton pending={isPending} pendingText={pendingText} className="w-full">
            {button}
          </SubmitButton>
        </Form>
      </div>
    </div>
  );
}
