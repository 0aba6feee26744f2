import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, Link } from "@remix-run/react";
import { inputAttributes, Button, ErrorList, Field, SubmitButton, useIsPending } from "~/components/forms";
import { PostalAddressFields } from "~/components/delivery-fields";
import type { PostalAddress } from "~/domain/address";
import { addressSchema, MAX_ADDRESSES } from "~/forms/trade-schemas";

export type SavedAddress = {
  id: string;
  label: string;
  address: string;
  postal: PostalAddress;
  needsConfirmation: boolean;
  isDefault: boolean;
};

/**
 * My Profile: the delivery addresses (add, edit, delete, default). Editing is a link (?edit=id) that
 * re-renders the page with that address in the form, so it works the same without JavaScript.
 */
export function AddressBook({
  addresses,
  editing,
  lastResult,
}: {
  addresses: SavedAddress[];
  editing: SavedAddress | null;
  lastResult?: SubmissionResult<string[]>;
}) {
  return (
    <section aria-labelledby="addresses-heading" className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="addresses-heading" className="text-xl font-semibold text-slate-900">
        Address book
      </h2>
      {addresses.length ? (
        <ul className="mt-4 divide-y divide-slate-200" data-testid="address-book">
          {addresses.map((entry) => (
            <li key={entry.id} className="flex flex-wrap items-start justify-between gap-3 py-3">
              <div>
                <p className="font-medium text-slate-900">
                  {entry.label || "Delivery address"}
                  {entry.isDefault ? (
                    <span className="ml-2 rounded bg-brand-50 px-2 text-sm text-brand-800">Default</span>
                  ) : null}
                </p>
                <p className="whitespace-pre-line text-slate-700">{entry.address}</p>
                {entry.needsConfirmation ? (
                  <p className="text-sm font-medium text-amber-800" data-testid="address-to-confirm">
                    Saved as free text: check its fields (Edit) or order to it to confirm it.
                  </p>
                ) : null}
              </div>
              <div className="flex flex-wrap gap-2">
                <Link
                  to={`?edit=${entry.id}`}
                  className="inline-flex min-h-11 items-center rounded border border-brand-700 px-3 py-1 text-brand-700"
                  aria-label={`Edit ${entry.label || entry.address}`}
                >
                  Edit
                </Link>
                {entry.isDefault ? null : (
                  <Form method="post">
                    <input type="hidden" name="addressId" value={entry.id} />
                    <Button
                      variant="secondary"
                      name="intent"
                      value="address-default"
                      className="py-1"
                      aria-label={`Make default: ${entry.label || entry.address}`}
                    >
                      Make default
                    </Button>
                  </Form>
                )}
                <Form method="post">
                  <input type="hidden" name="addressId" value={entry.id} />
                  <Button
                    variant="danger"
                    name="intent"
                    value="address-delete"
                    className="py-1"
                    aria-label={`Delete ${entry.label || entry.address}`}
                  >
                    Delete
                  </Button>
                </Form>
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-slate-700">No saved addresses yet. Addresses you order to can be saved here too.</p>
      )}
      {editing || addresses.length < MAX_ADDRESSES ? (
        // Keyed by the book's size too: once an address is added, the form starts empty again (with JavaScript).
        <AddressForm key={editing?.id ?? `new-${addresses.length}`} editing={editing} lastResult={lastResult} />
      ) : (
        <p className="mt-4 text-slate-700">
          The address book is full ({MAX_ADDRESSES} addresses). Delete one to add another.
        </p>
      )}
    </section>
  );
}

function AddressForm({
  editing,
  lastResult,
}: {
  editing: SavedAddress | null;
  lastResult?: SubmissionResult<string[]>;
}) {
  const isPending = useIsPending();
  const title = editing ? "Save address" : "Add address";
  const [form, fields] = useForm({
    id: editing ? `address-${editing.id}` : "address-new",
    lastResult,
    defaultValue: editing ? { label: editing.label, postal: editing.postal, addressId: editing.id } : undefined,
    constraint: getZodConstraint(addressSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: addressSchema }),
  });
  return (
    <Form
      method="post"
      // Editing posts back to ?edit=id, so a refused change shows again in this address's form.
      action={editing ? `?index&edit=${editing.id}` : undefined}
      {...getFormProps(form)}
      noValidate
      className="mt-6 grid gap-x-6 gap-y-1 md:grid-cols-2"
    >
      <h3 className="text-lg font-semibold md:col-span-2">{title}</h3>
      <input type="hidden" name="intent" value="address-save" />
      {editing ? <input {...inputAttributes(fields.addressId, { type: "hidden" })} key={fields.addressId.key} /> : null}
      <Field meta={fields.label} label="Name of the address" inputProps={{ placeholder: "Main warehouse" }} />
      <div className="md:col-span-2">
        <PostalAddressFields meta={fields.postal} legend="Address" section="shipping" />
      </div>
      <label className="flex items-center gap-2 md:col-span-2">
        <input {...inputAttributes(fields.makeDefault, { type: "checkbox" })} key={fields.makeDefault.key} />
        Use as my default delivery address
      </label>
      <div className="mt-2 flex gap-3 md:col-span-2">
        <ErrorList id={form.errorId} errors={form.errors} />
        <SubmitButton pending={isPending} pendingText="Saving…">
          {title}
        </SubmitButton>
        {editing ? (
          <Link to="." className="self-center text-brand-700 underline">
            Cancel editing
          </Link>
        ) : null}
      </div>
    </Form>
  );
}
