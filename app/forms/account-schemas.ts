import { AVATAR_MAX_BYTES } from "~/domain/avatar";
/** The zod schemas of the account forms (sign-up, login, My Profile), shared by server and browser. */
import { z } from "zod";
import { plainText } from "~/domain/plain-text";

/** Sign-up with an email that already has an account (shown next to the email field). */
export const EMAIL_TAKEN = "An account with this email already exists";

/** A simple email pattern: something@something.something, no spaces. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const emailSchema = z
  .string({ required_error: "Email is Required", invalid_type_error: "Email is Required" })
  .trim()
  .min(1, "Email is Required")
  .max(254, "Email must be 254 characters or fewer")
  .regex(EMAIL_PATTERN, "Provide a valid Email")
  .toLowerCase();

export const passwordSchema = z
  .string({ required_error: "Password is Required", invalid_type_error: "Password is Required" })
  .min(6, "Must be 6 characters or longer")
  .max(128, "Must be 128 characters or fewer");

/** The hint under every new-password field (the server's checks: app/services/password.server.ts). */
export const NEW_PASSWORD_HELP =
  "At least 6 characters and hard to guess: not a common password, the shop's name, your email or your name, your company's name, or a word or a season with a year or a few digits added.";

export const nameSchema = plainText(
  z
    .string({ required_error: "Name is Required", invalid_type_error: "Name is Required" })
    .trim()
    .min(1, "Name is Required")
    .max(100, "Name must be 100 characters or fewer"),
  "Name",
);

const redirectToSchema = z.string().max(2048).optional();

export const loginSchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  redirectTo: redirectToSchema,
});

export const signupSchema = z.object({
  name: nameSchema,
  email: emailSchema,
  password: passwordSchema,
});

function webAddress(label: string, { httpsOnly }: { httpsOnly: boolean }) {
  return z
    .string({ invalid_type_error: `${label} must be a web address` })
    .trim()
    .max(2048, `${label} must be 2048 characters or fewer`)
    .refine(
      (value) => {
        try {
          const url = new URL(value);
          return httpsOnly ? url.protocol === "https:" : url.protocol === "https:" || url.protocol === "http:";
        } catch {
          return false;
        }
      },
      httpsOnly
        ? `${label} must be a web address starting with https://`
        : `${label} must be a web address starting with https:// or http://`,
    )
    .optional();
}

const optionalText = (label: string, max: number, options: { multiline?: boolean } = {}) =>
  plainText(
    z
      .string({ invalid_type_error: `${label} must be text` })
      .trim()
      .max(max, `${label} must be ${max} characters or fewer`),
    label,
    options,
  ).optional();

export const profileSchema = z.object({
  name: nameSchema,
  // No picture address here: the avatar is the Google account's picture or the default (domain/avatar.ts).
  number: z
    .string({ invalid_type_error: "Phone number must be text" })
    .trim()
    .max(40, "Phone number must be 40 characters or fewer")
    .regex(/^\+?[0-9][0-9 ()./-]{2,}$/, "Enter a phone number: digits, spaces and + ( ) - . /")
    .optional(),
  address: optionalText("Address", 300, { multiline: true }),
  education: optionalText("Education", 200),
  linkedin: webAddress("LinkedIn", { httpsOnly: false }),
});

/** My Profile's picture upload (its bytes are checked on the server: PNG, JPEG or WebP). */
export const avatarSchema = z.object({
  // Any File-like upload (the server's form parser and the browser each have their own File class).
  avatar: z
    .custom<File>(
      (value) => typeof value === "object" && value !== null && "arrayBuffer" in value && "size" in value,
      "Choose a picture",
    )
    .refine((file) => file.size > 0, "Choose a picture")
    .refine((file) => file.size <= AVATAR_MAX_BYTES, "The picture must be 512 KB or smaller"),
});

export const makeAdminSchema = z.object({
  userId: z.string({ required_error: "Choose a user" }).regex(/^[a-f0-9]{24}$/i, "Choose a user"),
});

/** All Users' forms: make admin (the default, as the spec's form posts only the user), remove admin, sign out everywhere. */
export const USER_INTENTS = ["make-admin", "demote", "sign-out"] as const;
export const userActionSchema = makeAdminSchema.extend({
  intent: z.enum(USER_INTENTS, { errorMap: () => ({ message: "Choose an action" }) }).default("make-admin"),
});

/** Your sessions: end one (named by its handle) or all the others. */
export const sessionActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("end"),
    session: z.string({ required_error: "Choose a session" }).regex(/^[A-Za-z0-9_-]{22}$/, "Choose a session"),
  }),
  z.object({ intent: z.literal("end-others") }),
  z.object({ intent: z.literal("revoke-keys") }),
]);

/** The one answer of the forgot-password form, whether or not the account exists. */
export const RESET_LINK_SENT =
  "If an account exists for that email, we have sent a link to reset your password. It works for one hour.";

export const forgotPasswordSchema = z.object({ email: emailSchema });

export const resetPasswordSchema = z.object({
  token: z.string({ required_error: "This password reset link is not valid." }).max(100),
  password: passwordSchema,
});

/** Asked before a change of email or password (ASVS 3.7.1); absent on an account without a password. */
const currentPasswordSchema = z
  .string({ invalid_type_error: "Enter your current password" })
  .max(128, "Must be 128 characters or fewer")
  .optional();
export const CURRENT_PASSWORD_REQUIRED = "Enter your current password";
export const CURRENT_PASSWORD_WRONG = "This is not your current password";

/** My Profile: a new email address, used once the link mailed to it is opened. */
export const changeEmailSchema = z.object({
  intent: z.literal("change-email"),
  newEmail: emailSchema,
  currentPassword: currentPasswordSchema,
});

/** My Profile: a new password, with the current one. */
export const changePasswordSchema = z.object({
  intent: z.literal("change-password"),
  currentPassword: z
    .string({ required_error: CURRENT_PASSWORD_REQUIRED, invalid_type_error: CURRENT_PASSWORD_REQUIRED })
    .min(1, CURRENT_PASSWORD_REQUIRED)
    .max(128, "Must be 128 characters or fewer"),
  newPassword: passwordSchema,
});
export const SAME_EMAIL = "This is already your email address";

/** My Profile: the non-essential order emails on or off (a checkbox: absent means off). */
export const emailPreferencesSchema = z.object({
  intent: z.literal("email-preferences"),
  orderUpdateEmails: z.boolean().optional(),
});

/** The confirm button of a page a mailed link opens (verify email, change email): the link's token. */
export const mailedLinkSchema = z.object({
  token: z.string({ required_error: "This link is not valid." }).max(100, "This link is not valid."),
});
