export type UserConfirmIntent = "make-admin" | "demote" | "sign-out";

/** The words of All Users' confirmations (the modal and the no-JavaScript page say the same). */
export function userConfirmCopy(intent: UserConfirmIntent, user: { name: string; email: string }, isSelf: boolean) {
  if (intent === "make-admin") {
    return {
      label: "Make Admin",
      pending: "Making admin…",
      tone: "primary" as const,
      title: `Make ${user.name} an admin?`,
      message: `${user.name} (${user.email}) gets every admin screen at once: products, orders, users and the audit log. Another admin can remove them again.`,
    };
  }
  if (intent === "demote") {
    return {
      tone: "danger" as const,
      label: "Remove admin",
      pending: "Removing admin…",
      title: isSelf ? "Stop being an admin?" : `Remove ${user.name} as an admin?`,
      message: isSelf
        ? "You will lose the admin screens at once. Another admin can make you an admin again."
        : `${user.name} (${user.email}) becomes a customer and loses the admin screens at once. The shop always keeps at least one admin.`,
    };
  }
  return {
    tone: "danger" as const,
    label: "Sign out everywhere",
    pending: "Signing out…",
    title: isSelf ? "Sign yourself out everywhere?" : `Sign ${user.name} out everywhere?`,
    message: isSelf
      ? "Every session of yours ends, this one too, and every API key you made is revoked: you will have to sign in again."
      : `Every session of ${user.name} (${user.email}) ends and every API key they made is revoked: on each device they will have to sign in again. Their webhooks stay.`,
  };
}
