import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { redirectWithError } from "~/services/toast.server";
import { ErrorList, Field, SubmitButton, TextareaField, useIsPending } from "~/components/forms";
import { getPasswordHashOf } from "~/models/user-credentials.server";
import { AvatarForm } from "~/components/profile/avatar-form";
import { profileSchema } from "~/forms/account-schemas";
import { endSession } from "~/services/session-cookie.server";
import { getUser, requireUser } from "~/services/guards.server";
import { EmailSettings } from "~/components/profile/email-settings";
import { PasswordSettings } from "~/components/profile/password-settings";
import { readForm } from "~/services/form.server";
import { IntegrationsPanel } from "~/components/integrations-panel";
import { integrationStatus } from "~/services/integrations.server";
import { AddressBook } from "~/components/profile/address-book";
import { CompanyForm } from "~/components/profile/company-form";
import { countryName } from "~/domain/tax-id";
import { companyRightsOf, profileIntent, requireCompanyRight } from "./intents.server";

const DEFAULT_AVATAR = "/images/default-avatar.svg";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const editId = new URL(request.url).searchParams.get("edit");
  const editing = user.addresses.find((entry) => entry.id === editId) ?? null;
  const hasPassword = Boolean(await getPasswordHashOf(user.id));
  return data(
    {
      profile: user,
      editing,
      hasPassword,
      rights: companyRightsOf(user),
      integrations: user.role === "admin" ? integrationStatus() : null,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

/** Every form of My Profile posts here; its hidden `intent` picks the handler (intents.server.ts). */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await getUser(request);
  if (!user) {
    // Spec 4 and 8: without a signed-in user the update fails with this message and changes nothing.
    throw await redirectWithError(
      `/login?${new URLSearchParams({ redirectTo: "/dashboard" })}`,
      "No user is logged in",
      {
        headers: await endSession(request),
      },
    );
  }
  const formData = await readForm(request);
  const intent = String(formData.get("intent") ?? "profile");
  requireCompanyRight(user, intent);
  return profileIntent(intent)({ request, context, user, formData, intent });
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
  const { profile, editing, hasPassword, rights, integrations } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // Several forms on one page: each gets back only its own result.
  const resultFor = (name: string) => {
    if (!actionData || actionData.formName !== name) return undefined;
    const { formName: _formName, ...result } = actionData;
    return result as SubmissionResult<string[]>;
  };
  const lastResult = resultFor("profile");
  const ownPicture = Boolean(profile.photoUrl?.startsWith("/avatars/"));
  const navigation = useNavigation();
  const pendingIntent = navigation.state !== "idle" ? navigation.formData?.get("intent") : undefined;
  const isPending = useIsPending() && (pendingIntent === undefined || pendingIntent === "profile");
  const [form, fields] = useForm({
    id: "profile",
    lastResult,
    defaultValue: {
      name: profile.name,
      number: profile.number,
      address: profile.address,
      education: profile.education,
      linkedin: profile.linkedin,
    },
    constraint: getZodConstraint(profileSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: profileSchema }),
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
            <p className="text-xs text-slate-600">
              {profile.photoUrl
                ? ownPicture
                  ? "Your picture is the one you uploaded."
                  : "Your picture is your Google account's picture."
                : "Upload a picture below, or sign in with Google to use your Google picture."}
            </p>
          </div>
        </div>
        <dl className="mt-6 divide-y divide-slate-200" data-testid="profile-details">
          <Detail label="Name">{profile.name}</Detail>
          <Detail label="Email">{profile.email}</Detail>
          <Detail label="Role">{profile.role === "admin" ? "Admin" : "Customer"}</Detail>
          <Detail label="Company">{profile.company.companyName || notAdded}</Detail>
          <Detail label="VAT or tax number">
            {profile.company.taxId ? `${profile.company.taxId} (${countryName(profile.company.country)})` : notAdded}
          </Detail>
          <Detail label="Billing address">
            <span className="whitespace-pre-line">{profile.company.billingAddress || notAdded}</span>
          </Detail>
          <Detail label="Phone number">{profile.number || notAdded}</Detail>
          <Detail label="Address">{profile.address || notAdded}</Detail>
          <Detail label="Education">{profile.education || notAdded}</Detail>
          <Detail label="LinkedIn">
            {profile.linkedin ? (
              <a
                href={profile.linkedin}
                rel="noopener noreferrer nofollow"
                target="_blank"
                className="text-brand-700 underline"
              >
                {profile.linkedin}
              </a>
            ) : (
              notAdded
            )}
          </Detail>
        </dl>
      </section>

      <AvatarForm hasOwnPicture={ownPicture} lastResult={resultFor("avatar")} />
      {rights.details ? (
        <CompanyForm company={profile.company} lastResult={resultFor("company")} />
      ) : (
        <p className="rounded-lg border border-slate-200 bg-white p-6 text-slate-700 shadow-sm">
          Your company&apos;s owner keeps its details, tax number and billing address.
        </p>
      )}
      {rights.addresses ? (
        <AddressBook addresses={profile.addresses} editing={editing} lastResult={resultFor("address-save")} />
      ) : null}
      <section aria-labelledby="edit-heading" className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h2 id="edit-heading" className="text-xl font-semibold text-slate-900">
          Update profile
        </h2>
        {/* Always noValidate: the server (and Conform, once hydrated) show the shop's own messages. */}
        <Form method="post" {...getFormProps(form)} noValidate className="mt-4 grid gap-x-6 gap-y-1 md:grid-cols-2">
          <input type="hidden" name="intent" value="profile" />
          <Field meta={fields.name} label="Name" inputProps={{ autoComplete: "name" }} />
          <Field meta={fields.number} label="Phone number" type="tel" inputProps={{ autoComplete: "tel" }} />
          <Field meta={fields.education} label="Education" />
          <TextareaField
            meta={fields.address}
            label="Address"
            textareaProps={{ rows: 2, autoComplete: "street-address" }}
          />
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
        hasPassword={hasPassword}
        orderUpdateEmails={profile.orderUpdateEmails}
        changeResult={resultFor("change-email")}
        pendingIntent={typeof pendingIntent === "string" ? pendingIntent : undefined}
      />
      <PasswordSettings
        hasPassword={hasPassword}
        lastResult={resultFor("change-password") ?? resultFor("set-password")}
        pendingIntent={typeof pendingIntent === "string" ? pendingIntent : undefined}
      />
      {integrations ? <IntegrationsPanel integrations={integrations} /> : null}
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "My Profile — PartsWorks" }];
