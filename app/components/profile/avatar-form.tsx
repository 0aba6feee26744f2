import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form, useNavigation } from "@remix-run/react";
import { inputAttributes, ErrorList, SubmitButton, useIsPending } from "~/components/forms";
import { avatarSchema } from "~/forms/account-schemas";

/**
 * My Profile: upload a picture to our own storage (PNG, JPEG or WebP up to 512 KB), or remove it.
 * A plain multipart POST, so it works without JavaScript.
 */
export function AvatarForm({
  hasOwnPicture,
  lastResult,
}: {
  hasOwnPicture: boolean;
  lastResult?: SubmissionResult<string[]>;
}) {
  const [form, fields] = useForm({
    id: "avatar",
    lastResult,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: avatarSchema }),
  });
  const navigation = useNavigation();
  const pendingIntent = navigation.state !== "idle" ? navigation.formData?.get("intent") : undefined;
  const submitting = useIsPending();
  const { key, ...fileProps } = inputAttributes(fields.avatar, { type: "file" });
  return (
    <section aria-labelledby="avatar-heading" className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="avatar-heading" className="text-xl font-semibold text-slate-900">
        Profile picture
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Shown on your profile and your reviews: a PNG, JPEG or WebP picture of 512 KB or less. Without one, your Google
        picture (if you sign in with Google) or the default picture is shown.
      </p>
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="mt-4">
        <input type="hidden" name="intent" value="avatar" />
        <label htmlFor={fields.avatar.id} className="mb-1 block text-sm font-medium text-slate-800">
          Picture
        </label>
        <input
          key={key}
          {...fileProps}
          accept="image/png,image/jpeg,image/webp"
          className="block min-h-11 w-full rounded border border-slate-400 bg-white px-3 py-2 text-slate-900 aria-[invalid=true]:border-red-700"
        />
        <ErrorList id={fields.avatar.errorId} errors={fields.avatar.errors} />
        <div className="flex flex-wrap gap-3">
          <SubmitButton pending={submitting && pendingIntent === "avatar"} pendingText="Uploading…">
            Upload picture
          </SubmitButton>
        </div>
      </Form>
      {hasOwnPicture ? (
        <Form method="post" className="mt-3">
          <input type="hidden" name="intent" value="avatar-remove" />
          <SubmitButton
            variant="secondary"
            pending={submitting && pendingIntent === "avatar-remove"}
            pendingText="Removing…"
          >
            Remove picture
          </SubmitButton>
        </Form>
      ) : null}
    </section>
  );
}
