import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { redirectWithError, redirectWithSuccess } from "~/utils/toast.server";
import { ErrorList, Field, SubmitButton, TextareaField, useIsPending } from "~/components/forms";
import { updateProfile } from "~/models/user.server";
import { ProfileSchema } from "~/utils/account-schemas";
import { endSession, getUser, requireUser } from "~/utils/auth.server";
import { readForm } from "~/utils/form.server";
import { IntegrationsPanel } from "~/components/integrations-panel";
import { integrationStatus } from "~/utils/integrations.server";

const DEFAULT_AVATAR = "/images/default-avatar.svg";
/** Spec 9: the profile success message lasts 1500 ms. */
const PROFILE_TOAST_MS = 1500;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({ profile: user, integrations: user.role === "admin" ? integrationStatus() : null });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await getUser(request);
  if (!user) {
    // Spec 4 and 8: without a signed-in user the update fails with this message and changes nothing.
    throw await redirectWithError(`/login?${new URLSearchParams({ redirectTo: "/dashboard" })}`, "No user is logged in", {
      headers: await endSession(request),
    });
  }
  const submission = parseWithZod(await readForm(request), { schema: ProfileSchema });
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
  const { profile, integrations } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const isPending = useIsPending();
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
          Update profile
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
      {integrations ? <IntegrationsPanel integrations={integrations} /> : null}
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "My Profile | PartsWorks" }];
