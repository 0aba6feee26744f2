import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";
import { redirectWithError, redirectWithSuccess } from "~/utils/toast.server";
import { ErrorList, Field, SubmitButton, TextareaField, useIsPending } from "~/components/forms";
import { getUserByEmail, setOrderUpdateEmails, updateProfile, type UserView } from "~/models/user.server";
import {
  ChangeEmailSchema,
  EMAIL_TAKEN,
  EmailPreferencesSchema,
  ProfileSchema,
  SAME_EMAIL,
} from "~/utils/account-schemas";
import { endSession, getUser, requireUser } from "~/utils/auth.server";
import { requestEmailChange } from "~/utils/email-change.server";
import { readForm } from "~/utils/form.server";
import { mailRequestAttempt } from "~/utils/mail-throttle.server";
import { clientIp } from "~/utils/rate-limit.server";

const DEFAULT_AVATAR = "/images/default-avatar.svg";
/** Spec 9: the profile success message lasts 1500 ms. */
const PROFILE_TOAST_MS = 1500;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({ profile: user });
}

/** Change of email: nothing changes until the link mailed to the new address is opened. */
async function changeEmailAction(user: UserView, formData: FormData, context: ActionFunctionArgs["context"]) {
  const submission = parseWithZod(formData, { schema: ChangeEmailSchema });
  const reply = (status: number, result = submission.reply()) => json({ form: "change-email" as const, result }, { status });
  if (submission.status !== "success") return reply(400);
  const { newEmail } = submission.value;
  if (newEmail === user.email) return reply(400, submission.reply({ fieldErrors: { newEmail: [SAME_EMAIL] } }));
  if (await getUserByEmail(newEmail)) return reply(400, submission.reply({ fieldErrors: { newEmail: [EMAIL_TAKEN] } }));
  const refusal = await mailRequestAttempt({ ip: clientIp(context), email: newEmail, action: "change-email" });
  if (refusal) return reply(429, submission.reply({ formErrors: [refusal.message] }));
  await requestEmailChange(user, newEmail);
  return redirectWithSuccess("/dashboard", {
    message: `We have sent a link to ${newEmail}`,
    description: `Open it to use that address; until then your account keeps ${user.email}.`,
  });
}

async function emailPreferencesAction(user: UserView, formData: FormData) {
  const submission = parseWithZod(formData, { schema: EmailPreferencesSchema });
  if (submission.status !== "success") return json({ form: "email-preferences" as const, result: submission.reply() }, { status: 400 });
  const on = submission.value.orderUpdateEmails === true;
  await setOrderUpdateEmails(user.id, on);
  return redirectWithSuccess(
    "/dashboard",
    on ? "Order update emails are on" : "Order update emails are off; shipping notices still come",
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await getUser(request);
  if (!user) {
    // Spec 4 and 8: without a signed-in user the update fails with this message and changes nothing.
    throw await redirectWithError(`/login?${new URLSearchParams({ redirectTo: "/dashboard" })}`, "No user is logged in", {
      headers: await endSession(request),
    });
  }
  const formData = await readForm(request);
  const intent = formData.get("intent");
  if (intent === "change-email") return changeEmailAction(user, formData, context);
  if (intent === "email-preferences") return emailPreferencesAction(user, formData);
  const submission = parseWithZod(formData, { schema: ProfileSchema });
  if (submission.status !== "success") {
    return json(submission.reply(), { status: 400 });
  }
  const updated = await updateProfile(user.id, submission.value);
  if (!updated) {
    throw await redirectWithError("/login", "No user is logged in", { headers: await endSession(request) });
  }
  return redirectWithSuccess("/dashboard", { message: "Update profile successfully", duration: PROFILE_TOAST_MS });
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="py-2 sm:grid sm:grid-cols-3 sm:gap-4">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="break-words text-slate-900 sm:col-span-2">{children}</dd>
    </div>
  );
}

const notAdded = <span className="text-slate-600">Not added yet</span>;

export default function MyProfile() {
  const { profile } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const lastResult = actionData && !("form" in actionData) ? actionData : undefined;
  const navigation = useNavigation();
  const pendingIntent = navigation.state !== "idle" ? navigation.formData?.get("intent") : undefined;
  const isPending = useIsPending() && !pendingIntent;
  const [form, fields] = useForm({
    id: "profile",
    lastResult,
    defaultValue: {
      name: profile.name,
      photoUrl: profile.photoUrl ?? "",
      number: profile.number,
      address: profile.address,
      education: profile.education,
      linkedin: profile.linkedin,
    },
    constraint: getZodConstraint(ProfileSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ProfileSchema }),
  });

  return (
    <div className="space-y-8">
      <section aria-labelledby="profile-heading" className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <div className="flex flex-col items-center gap-4 sm:flex-row">
          <img
            src={profile.photoUrl ?? DEFAULT_AVATAR}
            alt={`${profile.name}'s profile picture`}
            width={96}
            height={96}
            referrerPolicy="no-referrer"
            className="h-24 w-24 rounded-full border border-slate-300 bg-white object-cover"
          />
          <div className="text-center sm:text-left">
            <h1 id="profile-heading" className="text-2xl font-bold text-slate-900">
              My Profile
            </h1>
            <p className="text-slate-700">{profile.name}</p>
          </div>
        </div>
        <dl className="mt-6 divide-y divide-slate-200" data-testid="profile-details">
          <Detail label="Name">{profile.name}</Detail>
          <Detail label="Email">{profile.email}</Detail>
          <Detail label="Role">{profile.role === "admin" ? "Admin" : "Customer"}</Detail>
          <Detail label="Phone number">{profile.number || notAdded}</Detail>
          <Detail label="Address">{profile.address || notAdded}</Detail>
          <Detail label="Education">{profile.education || notAdded}</Detail>
          <Detail label="LinkedIn">
            {profile.linkedin ? (
              <a href={profile.linkedin} rel="noopener noreferrer nofollow" target="_blank" className="text-brand-700 underline">
                {profile.linkedin}
              </a>
            ) : (
              notAdded
            )}
          </Detail>
        </dl>
      </section>

      <section aria-labelledby="edit-heading" className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h2 id="edit-heading" className="text-xl font-semibold text-slate-900">
          Edit your profile
        </h2>
        {/* Always noValidate: the server (and Conform, once hydrated) show the shop's own messages. */}
        <Form method="post" {...getFormProps(form)} noValidate className="mt-4 grid gap-x-6 gap-y-1 md:grid-cols-2">
          <Field meta={fields.name} label="Name" inputProps={{ autoComplete: "name" }} />
          <Field
            meta={fields.photoUrl}
            label="Photo URL"
            type="url"
            inputProps={{ placeholder: "https://…" }}
            help="Your picture on your profile and reviews. Leave empty for the default picture."
          />
          <Field meta={fields.number} label="Phone number" type="tel" inputProps={{ autoComplete: "tel" }} />
          <Field meta={fields.education} label="Education" />
          <TextareaField meta={fields.address} label="Address" textareaProps={{ rows: 2, autoComplete: "street-address" }} />
          <Field
            meta={fields.linkedin}
            label="LinkedIn"
            type="url"
            inputProps={{ placeholder: "https://www.linkedin.com/in/…" }}
          />
          <div className="md:col-span-2">
            <ErrorList id={form.errorId} errors={form.errors} />
            <SubmitButton pending={isPending} pendingText="Saving…">
              Update profile
            </SubmitButton>
          </div>
        </Form>
      </section>

      <EmailSettings
        email={profile.email}
        orderUpdateEmails={profile.orderUpdateEmails}
        changeResult={actionData && "form" in actionData && actionData.form === "change-email" ? actionData.result : undefined}
        pendingIntent={typeof pendingIntent === "string" ? pendingIntent : undefined}
      />
    </div>
  );
}

function EmailSettings({
  email,
  orderUpdateEmails,
  changeResult,
  pendingIntent,
}: {
  email: string;
  orderUpdateEmails: boolean;
  changeResult: SubmissionResult<string[]> | undefined;
  pendingIntent: string | undefined;
}) {
  const [changeForm, changeFields] = useForm({
    id: "change-email",
    lastResult: changeResult,
    constraint: getZodConstraint(ChangeEmailSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ChangeEmailSchema }),
  });
  const [prefsForm, prefsFields] = useForm({
    id: "email-preferences",
    defaultValue: { orderUpdateEmails: orderUpdateEmails ? "on" : undefined },
  });
  const { key: prefsKey, ...checkboxProps } = getInputProps(prefsFields.orderUpdateEmails, { type: "checkbox" });
  return (
    <section aria-labelledby="email-heading" className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="email-heading" className="text-xl font-semibold text-slate-900">
        Email
      </h2>
      <Form method="post" {...getFormProps(changeForm)} noValidate className="mt-4 max-w-md">
        <input type="hidden" name="intent" value="change-email" />
        <Field
          meta={changeFields.newEmail}
          label="New email"
          type="email"
          inputProps={{ autoComplete: "email" }}
          help={`We mail a link to the new address; until you open it, your account keeps ${email}.`}
        />
        <ErrorList id={changeForm.errorId} errors={changeForm.errors} />
        <SubmitButton pending={pendingIntent === "change-email"} pendingText="Sending…">
          Change email
        </SubmitButton>
      </Form>
      <Form method="post" {...getFormProps(prefsForm)} className="mt-6 max-w-md" data-testid="email-preferences">
        <input type="hidden" name="intent" value="email-preferences" />
        <label className="flex items-start gap-2 text-slate-800">
          <input key={prefsKey} {...checkboxProps} className="mt-1 h-5 w-5" />
          <span>Order update emails: order placed, receipts, cancellations. Shipping notices and account emails always come.</span>
        </label>
        <SubmitButton className="mt-3" variant="secondary" pending={pendingIntent === "email-preferences"} pendingText="Saving…">
          Save email settings
        </SubmitButton>
      </Form>
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "My Profile | PartsWorks" }];
