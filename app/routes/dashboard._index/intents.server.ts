/**
 * What each form of My Profile does (the hidden `intent` names it): one handler an intent. A refusal
 * answers with the form's own result (`formName` says which form), a success goes back to
 * /dashboard with a toast.
 */
import { type ActionFunctionArgs, data } from "@remix-run/node";
import { redirectWithError, redirectWithSuccess } from "~/services/toast.server";
import { getUserByEmail, type UserView } from "~/models/user.server";
import { setOrderUpdateEmails, setPhotoUrl, updateProfile } from "~/models/user-profile.server";
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
import { requestEmailChange, requestEmailChangeApproval } from "~/services/email-change.server";
import { credentialsInWords } from "~/services/account-access.server";
import { passwordProblem } from "~/services/password.server";
import { sendPasswordResetLink } from "~/services/password-reset.server";
import { parseForm } from "~/services/form.server";
import { mailRequestAttempt } from "~/services/mail-throttle.server";
import { clientIp } from "~/services/rate-limit.server";
import { can } from "~/services/companies.server";
import { addAddress, deleteAddress, editAddress, setDefaultAddress, updateCompany } from "~/models/address-book.server";
import { addressActionSchema, addressSchema, companySchema, MAX_ADDRESSES } from "~/forms/trade-schemas";

/** Spec 9: the profile success message lasts 1500 ms. */
const PROFILE_TOAST_MS = 1500;

const NO_PASSWORD_YET = "Your account has no password yet: ask for a link to set one.";

type IntentArgs = {
  request: Request;
  context: ActionFunctionArgs["context"];
  user: UserView;
  formData: FormData;
  intent: string;
};

const saved = (message: string) => redirectWithSuccess("/dashboard", { message, duration: PROFILE_TOAST_MS });

/** The account went while the form was open: signed out, to the sign-in. */
const gone = async (request: Request) =>
  redirectWithError("/login", "No user is logged in", { headers: await endSession(request) });

/** Who may change what the company shares: its owners the details, those who order the address book. */
export function companyRightsOf(user: Parameters<typeof can>[0]) {
  const admin = user.role === "admin";
  return { details: admin || can(user, "manage"), addresses: admin || can(user, "order") };
}

/** Refuses (403) a change of the company's details or address book to a member whose role does not make it. */
export function requireCompanyRight(user: UserView, intent: string) {
  const rights = companyRightsOf(user);
  if (intent === "company" && !rights.details) {
    throw new Response("Only an owner of your company changes its details.", { status: 403 });
  }
  if (intent.startsWith("address-") && !rights.addresses) {
    throw new Response("Your role in the company does not change its address book.", { status: 403 });
  }
}

/** The profile's own fields (name, phone, address, education, LinkedIn): the form without an intent too. */
async function saveProfile({ request, user, formData }: IntentArgs) {
  const submission = parseForm(formData, { schema: profileSchema });
  if (submission.status !== "success") {
    return data({ ...submission.reply(), formName: "profile" }, { status: 400 });
  }
  const updated = await updateProfile(user.id, submission.value);
  if (!updated) throw await gone(request);
  return saved("Update profile successfully");
}

async function saveCompany({ request, user, formData, intent }: IntentArgs) {
  const submission = parseForm(formData, { schema: companySchema });
  if (submission.status !== "success") return data({ ...submission.reply(), formName: intent }, { status: 400 });
  if (!(await updateCompany(user.id, submission.value))) throw await gone(request);
  return saved("Company details saved");
}

/** A new address, or an edited one (`addressId`); a duplicate or a full book is said by the first line. */
async function saveAddress({ request, user, formData, intent }: IntentArgs) {
  const submission = parseForm(formData, { schema: addressSchema });
  if (submission.status !== "success") return data({ ...submission.reply(), formName: intent }, { status: 400 });
  const { addressId, ...entry } = submission.value;
  const outcome = addressId ? await editAddress(user.id, addressId, entry) : await addAddress(user.id, entry);
  if (outcome === "missing" && addressId)
    throw new Response("That address is not in your address book.", { status: 404 });
  if (outcome === "missing") throw await gone(request);
  if (outcome === "saved" || outcome === "added") return saved(outcome === "saved" ? "Address saved" : "Address added");
  const message =
    outcome === "duplicate"
      ? "This address is already in your address book"
      : `Your address book is full (${MAX_ADDRESSES} addresses)`;
  return data(
    { ...submission.reply({ fieldErrors: { "postal.line1": [message] } }), formName: intent },
    { status: 409 },
  );
}

/** "address-delete" and "address-default": one address of the book, by its id. */
async function changeAddress({ user, formData, intent }: IntentArgs) {
  const submission = parseForm(formData, { schema: addressActionSchema });
  if (submission.status !== "success") return data({ ...submission.reply(), formName: intent }, { status: 400 });
  const { addressId } = submission.value;
  const done =
    intent === "address-delete" ? await deleteAddress(user.id, addressId) : await setDefaultAddress(user.id, addressId);
  if (!done) throw new Response("That address is not in your address book.", { status: 404 });
  return saved(intent === "address-delete" ? "Address deleted" : "Default address changed");
}

/** An uploaded picture, re-encoded before it is kept; the picture it replaces is not kept. */
async function saveAvatarPicture({ request, user, formData, intent }: IntentArgs) {
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
    throw await gone(request);
  }
  await deleteAvatar(user.photoUrl);
  return saved("Profile picture saved");
}

async function removeAvatar({ request, user }: IntentArgs) {
  if (!(await setPhotoUrl(user.id, null))) throw await gone(request);
  await deleteAvatar(user.photoUrl);
  return saved("Profile picture removed");
}

/**
 * Change of email: the current password first (a Google-only account approves by a link to its
 * current address instead); nothing changes until the link mailed to the new address is opened.
 */
async function changeEmail({ user, formData, context }: IntentArgs) {
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
async function changeAccountPassword({ request, user, formData, context }: IntentArgs) {
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
async function setPassword({ user, context }: IntentArgs) {
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

async function saveEmailPreferences({ user, formData }: IntentArgs) {
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

const PROFILE_INTENTS = {
  profile: saveProfile,
  company: saveCompany,
  "address-save": saveAddress,
  "address-delete": changeAddress,
  "address-default": changeAddress,
  avatar: saveAvatarPicture,
  "avatar-remove": removeAvatar,
  "change-email": changeEmail,
  "change-password": changeAccountPassword,
  "set-password": setPassword,
  "email-preferences": saveEmailPreferences,
};

/** The handler of a posted intent; an unknown one (or none) is the profile form's. */
export function profileIntent(intent: string) {
  return Object.hasOwn(PROFILE_INTENTS, intent)
    ? PROFILE_INTENTS[intent as keyof typeof PROFILE_INTENTS]
    : PROFILE_INTENTS.profile;
}
