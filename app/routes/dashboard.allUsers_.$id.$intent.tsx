import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data as dataWithInit } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ConfirmPageForm } from "~/components/confirm-dialog";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { userConfirmCopy, type UserConfirmIntent } from "~/components/user-confirm-copy";
import { getUserById } from "~/models/user.server";
import { requireAdmin } from "~/services/guards.server";

/**
 * All Users' Make Admin, Remove admin and Sign out everywhere as a page (the modal, without JavaScript). Its
 * form posts to the All Users action, like the modal's.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const intent = params.intent;
  if (intent !== "make-admin" && intent !== "demote" && intent !== "sign-out") {
    throw new Response("Not Found", { status: 404 });
  }
  const user = await getUserById(params.id ?? "");
  if (!user || (intent === "demote" && user.role !== "admin")) {
    throw new Response("That user does not exist or is not an admin.", { status: 404 });
  }
  if (intent === "make-admin" && user.role === "admin") {
    throw new Response("That user is already an admin.", { status: 404 });
  }
  const raw = new URL(request.url).searchParams.get("page");
  const page = raw && /^\d{1,6}$/.test(raw) && Number(raw) > 1 ? Number(raw) : 1;
  return dataWithInit(
    { intent, user: { id: user.id, name: user.name, email: user.email }, isSelf: user.id === admin.id, page },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function UserConfirmPage() {
  const data = useLoaderData<typeof loader>();
  const { user, isSelf, page } = data;
  const intent = data.intent as UserConfirmIntent;
  const copy = userConfirmCopy(intent, user, isSelf);
  const back = `/dashboard/allUsers${page > 1 ? `?page=${page}` : ""}`;
  return (
    <div className="mx-auto max-w-lg px-4 py-10">
      <h1 className="break-words text-2xl font-bold">{copy.title}</h1>
      <div className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <ConfirmPageForm
          action={back}
          hidden={{ intent, userId: user.id }}
          message={<p className="break-words">{copy.message}</p>}
          confirmLabel={copy.label}
          pendingLabel={copy.pending}
          tone={copy.tone}
          backTo={back}
        />
      </div>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Confirm: All Users — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
