import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { redirectWithError, redirectWithSuccess } from "~/services/toast.server";
import { inputAttributes, ErrorList, Field, SubmitButton, TextareaField, useIsPending } from "~/components/forms";
import { getPasswordHashOf } from "~/models/user-credentials.server";
import { getUserByEmail, type UserView } from "~/models/user.server";
import { setOrderUpdateEmails, setPhotoUrl, updateProfile } from "~/models/user-profile.server";
import { AvatarForm } from "~/components/profile/avatar-form";
import {
  avatarUploadAttempt,
  deleteAvatar,
  imageTypeOf,
  reencodeAvatar,
  saveAvatar,
} from "~/services/avatar-store.server";
import {
  changeEmailSchema,
  changePasswordSchema,
  EMAIL_TAKEN,
  emailPreferencesSchema,
  avatarSchema,
  profileSchema,
  SAME_EMAIL,
} from "~/forms/account-schemas";
import { changePassword, checkCurrentPassword } from "~/services/account-security.server";
import { endSession, getSessionId } from "~/services/session-cookie.server";
import { getUser, requireUser } from "~/services/guards.server";
import { requestEmailChange, requestEmailChangeApproval } from "~/services/email-change.server";
import { credentialsInWords } from "~/services/account-access.server";
import { passwordProblem } from "~/services/password.server";
import { sendPasswordResetLink } from "~/services/password-reset.server";
import { PasswordSettings } from "~/components/profile/password-settings";
import { parseForm, readForm } from "~/services/form.server";
import { mailRequestAttempt } from "~/services/mail-throttle.server";
import { clientIp } from "~/services/rate-limit.server";
import { IntegrationsPanel } from "~/components/integrations-panel";
import { integrationStatus } from "~/services/integrations.server";
import { AddressBook } from "~/components/profile/address-book";
import { CompanyForm } from "~/components/profile/company-form";
import { can } from "~/services/companies.server";
import { addAddress, deleteAddress, editAddress, setDefaultAddress, updateCompany } from "~/models/address-book.server";
import { addressActionSchema, addressSchema, companySchema, MAX_ADDRESSES } from "~/forms/trade-schemas";
import { countryName } from "~/domain/tax-id";

const DEFAULT_AVATAR = "/images/default-avatar.svg";
/** Spec 9: the profile success message lasts 1500 ms. */
const PROFILE_TOAST_MS = 1500;

/** Who may change what the company shares: its owners the details, those who order the address book. */
function companyRightsOf(user: Parameters<typeof can>[0]) {
  const admin = user.role === "admin";
  return { details: admin || can(user, "manage"), addresses: admin || can(user, "order") };
}

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

/**
 * Change of email: the current password first (a Google-only account approves by a link to its
 * current address instead); nothing changes until the link mailed to the new address is opened.
 */
async function changeEmailAction(user: UserView, formData: FormData, context: ActionFunctionArgs["context"]) {
  const submission = parseForm(formData, { schema: changeEmailSchema });
  const reply = (status: number, result = submission.reply({ hideFields: ["currentPassword"] })) =>
    data({ ...result, formName: "change-email" }, { status });
  if (submission.status !== "success") return reply(400);
  const { newEmail, currentPassword } = submission.value;
  const fieldError = (field: string, message: string) =>
    reply(400, submission.reply({ fieldErrors: { [field]: [message] }, hideFields: ["currentPassword"] }));
  if (newEmail === user.email) return fieldError("newEmail", SAME_EMAIL);
  const proof = await checkCurrentPassword(user, currentPassword, clientIp(context));
  if (typeof proof === "object" && "refused" in proof)
    return reply(429, submission.reply({ formErrors: [proof.refused.message], hideFields: ["currentPassword"] }));
  if (typeof proof === "object") return fieldError("currentPassword", proof.fieldError);
  if (await getUserByEmail(newEmail)) return fieldError("newEmail", EMAIL_TAKEN);
  const refusal = await mailRequestAttempt({ ip: clientIp(context), email: newEmail, action: "change-email" });
  if (refusal) return reply(429, submission.reply({ formErrors: [refusal.message], hideFields: ["currentPassword"] }));
  if (proof === "no-password") {
    await requestEmailChangeApproval(user, newEmail);
    return redirectWithSuccess("/dashboard", {
      message: `We have sent a link to ${user.email} to approve the change`,
      description: `Open it to go on: we then send a link to ${newEmail}.`,
    });
  }
  await requestEmailChange(user, newEmail);
  return redirectWithSuccess("/dashboard", {
    message: `We have sent a link to ${newEmail}`,
    description: `Open it to use that address; until then your account keeps ${user.email}.`,
  });
}

/** Change of password: the current one first; every other session ends. */
async function changePasswordAction(
  request: Request,
  user: UserView,
  formData: FormData,
  context: ActionFunctionArgs["context"],
) {
  const submission = parseForm(formData, { schema: changePasswordSchema });
  const hide = ["currentPassword", "newPassword"];
  const reply = (status: number, result = submission.reply({ hideFields: hide })) =>
    data({ ...result, formName: "change-password" }, { status });
  if (submission.status !== "success") return reply(400);
  const { currentPassword, newPassword } = submission.value;
  const common = passwordProblem(newPassword, {
    email: user.email,
    name: user.name,
    companyName: user.company.companyName,
  });
  if (common) return reply(400, submission.reply({ fieldErrors: { newPassword: [common] }, hideFields: hide }));
  const proof = await checkCurrentPassword(user, currentPassword, clientIp(context));
  if (proof === "no-password") return reply(400, submission.reply({ formErrors: [NO_PASSWORD_YET], hideFields: hide }));
  if (typeof proof === "object" && "refused" in proof)
    return reply(429, submission.reply({ formErrors: [proof.refused.message], hideFields: hide }));
  if (typeof proof === "object")
    return reply(400, submission.reply({ fieldErrors: { currentPassword: [proof.fieldError] }, hideFields: hide }));
  const ended = await changePassword(user, await getSessionId(request), newPassword, context);
  if (!ended) throw new Response(null, { status: 404 });
  const credentials = credentialsInWords(ended);
  return redirectWithSuccess("/dashboard", {
    message: "Your password has been changed",
    description: credentials
      ? `Every other session of your account was signed out, and your ${credentials} stopped working: make new ones if you need them.`
      : "Every other session of your account was signed out.",
  });
}

/** A Google-only account gets a password by a link mailed to its address (a password reset). */
async function setPasswordAction(user: UserView, context: ActionFunctionArgs["context"]) {
  const refusal = await mailRequestAttempt({ ip: clientIp(context), email: user.email, action: "password-reset" });
  if (refusal)
    return data(
      { status: "error" as const, error: { "": [refusal.message] }, formName: "set-password" },
      { status: 429 },
    );
  await sendPasswordResetLink(user.email);
  return redirectWithSuccess("/dashboard", {
    message: `We have sent a link to ${user.email}`,
    description: "Open it to choose a password for your account.",
  });
}

const NO_PASSWORD_YET = "Your account has no password yet: ask for a link to set one.";

async function emailPreferencesAction(user: UserView, formData: FormData) {
  const submission = parseForm(formData, { schema: emailPreferencesSchema });
  if (submission.status !== "success")
    return data({ ...submission.reply(), formName: "email-preferences" }, { status: 400 });
  const on = submission.value.orderUpdateEmails === true;
  await setOrderUpdateEmails(user.id, on);
  return redirectWithSuccess(
    "/dashboard",
    on ? "Order update emails are on" : "Order update emails are off; receipts and shipping notices still come",
  );
}

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
  const saved = (message: string) => redirectWithSuccess("/dashboard", { message, duration: PROFILE_TOAST_MS });
  const gone = async () => redirectWithError("/login", "No user is logged in", { headers: await endSession(request) });

  const rights = companyRightsOf(user);
  if (intent === "company" && !rights.details) {
    throw new Response("Only an owner of your company changes its details.", { status: 403 });
  }
  if (intent.startsWith("address-") && !rights.addresses) {
    throw new Response("Your role in the company does not change its address book.", { status: 403 });
  }
  if (intent === "company") {
    const submission = parseForm(formData, { schema: companySchema });
    if (submission.status !== "success") return data({ ...submission.reply(), formName: intent }, { status: 400 });
    if (!(await updateCompany(user.id, submission.value))) throw await gone();
    return saved("Company details saved");
  }
  if (intent === "address-save") {
    const submission = parseForm(formData, { schema: addressSchema });
    if (submission.status !== "success") return data({ ...submission.reply(), formName: intent }, { status: 400 });
    const { addressId, ...entry } = submission.value;
    const outcome = addressId ? await editAddress(user.id, addressId, entry) : await addAddress(user.id, entry);
    if (outcome === "missing" && addressId)
      throw new Response("That address is not in your address book.", { status: 404 });
    if (outcome === "missing") throw await gone();
    if (outcome === "saved" || outcome === "added")
      return saved(outcome === "saved" ? "Address saved" : "Address added");
    const message =
      outcome === "duplicate"
        ? "This address is already in your address book"
        : `Your address book is full (${MAX_ADDRESSES} addresses)`;
    return data(
      { ...submission.reply({ fieldErrors: { "postal.line1": [message] } }), formName: intent },
      { status: 409 },
    );
  }
  if (intent === "address-delete" || intent === "address-default") {
    const submission = parseForm(formData, { schema: addressActionSchema });
    if (submission.status !== "success") return data({ ...submission.reply(), formName: intent }, { status: 400 });
    const { addressId } = submission.value;
    const done =
      intent === "address-delete"
        ? await deleteAddress(user.id, addressId)
        : await setDefaultAddress(user.id, addressId);
    if (!done) throw new Response("That address is not in your address book.", { status: 404 });
    return saved(intent === "address-delete" ? "Address deleted" : "Default address changed");
  }

  if (intent === "avatar") {
    const submission = parseForm(formData, { schema: avatarSchema });
    const refuse = (status: number, message: string) =>
      data({ ...submission.reply({ fieldErrors: { avatar: [message] } }), formName: intent }, { status });
    if (submission.status !== "success") return data({ ...submission.reply(), formName: intent }, { status: 400 });
    const tooMany = await avatarUploadAttempt(user.id);
    if (tooMany) return refuse(429, tooMany);
    const bytes = new Uint8Array(await submission.value.avatar.arrayBuffer());
    const type = imageTypeOf(bytes);
    const clean = type ? await reencodeAvatar(bytes, type) : null;
    if (!type || !clean) return refuse(415, "Choose a PNG, JPEG or WebP picture");
    const photoUrl = await saveAvatar(clean, type);
    if (!(await setPhotoUrl(user.id, photoUrl))) {
      await deleteAvatar(photoUrl);
      throw await gone();
    }
    // The picture it replaces is not kept.
    await deleteAvatar(user.photoUrl);
    return saved("Profile picture saved");
  }
  if (intent === "avatar-remove") {
    if (!(await setPhotoUrl(user.id, null))) throw await gone();
    await deleteAvatar(user.photoUrl);
    return saved("Profile picture removed");
  }
  if (intent === "change-email") return changeEmailAction(user, formData, context);
  if (intent === "change-password") return changePasswordAction(request, user, formData, context);
  if (intent === "set-password") return setPasswordAction(user, context);
  if (intent === "email-preferences") return emailPreferencesAction(user, formData);

  const submission = parseForm(formData, { schema: profileSchema });
  if (submission.status !== "success") {
    return data({ ...submission.reply(), formName: "profile" }, { status: 400 });
  }
  const updated = await updateProfile(user.id, submission.value);
  if (!updated) throw await gone();
  return saved("Update profile successfully");
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

function EmailSettings({
  email,
  hasPassword,
  orderUpdateEmails,
  changeResult,
  pendingIntent,
}: {
  email: string;
  hasPassword: boolean;
  orderUpdateEmails: boolean;
  changeResult: SubmissionResult<string[]> | undefined;
  pendingIntent: string | undefined;
}) {
  const [changeForm, changeFields] = useForm({
    id: "change-email",
    lastResult: changeResult,
    constraint: getZodConstraint(changeEmailSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: changeEmailSchema }),
  });
  const [prefsForm, prefsFields] = useForm({
    id: "email-preferences",
    defaultValue: { orderUpdateEmails: orderUpdateEmails ? "on" : undefined },
  });
  const { key: prefsKey, ...checkboxProps } = inputAttributes(prefsFields.orderUpdateEmails, { type: "checkbox" });
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
          help={
            hasPassword
              ? `We mail a link to the new address; until you open it, your account keeps ${email}.`
              : `We first mail ${email} a link to approve the change, then a link to the new address.`
          }
        />
        {hasPassword ? (
          <Field
            meta={changeFields.currentPassword}
            label="Current password"
            type="password"
            inputProps={{ autoComplete: "current-password" }}
          />
        ) : null}
        <ErrorList id={changeForm.errorId} errors={changeForm.errors} />
        <SubmitButton pending={pendingIntent === "change-email"} pendingText="Sending…">
          Change email
        </SubmitButton>
      </Form>
      <Form method="post" {...getFormProps(prefsForm)} className="mt-6 max-w-md" data-testid="email-preferences">
        <input type="hidden" name="intent" value="email-preferences" />
        <label className="flex items-start gap-2 text-slate-800">
          <input key={prefsKey} {...checkboxProps} className="mt-1 h-5 w-5" />
          <span>
            Order update emails: order placed, cancellations. Receipts of payments, shipping notices and account emails
            always come.
          </span>
        </label>
        <SubmitButton
          className="mt-3"
          variant="secondary"
          pending={pendingIntent === "email-preferences"}
          pendingText="Saving…"
        >
          Save email settings
        </SubmitButton>
      </Form>
    </section>
  );
}
