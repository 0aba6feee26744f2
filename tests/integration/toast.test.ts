import { describe, expect, test } from "vitest";
import { loader as rootLoader } from "~/root";
import { getToast, redirectWithSuccess } from "~/services/toast.server";
import { getRequest, loaderArgs, settle } from "../setup/requests";

function toastCookie(response: Response) {
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith("toast="));
  return cookie!.split(";")[0];
}

describe("toasts", () => {
  test("a redirect's toast is read back once by the next page and shown in its HTML data", async () => {
    const redirect = await redirectWithSuccess("/", "Part added successfully");
    const response = await settle(rootLoader(loaderArgs(getRequest("/", { cookie: toastCookie(redirect) }))));
    // The consumed toast's cookie goes back with the answer.
    expect(response.headers.getSetCookie().some((cookie) => cookie.startsWith("toast="))).toBe(true);
    const data = await response.json();
    expect(data.toast).toMatchObject({ message: "Part added successfully", type: "success" });
  });

  test("a page without a toast cookie shows no toast and sets no cookie", async () => {
    const answer = await rootLoader(loaderArgs(getRequest("/", { cookie: "other=1" })));
    // Plain data: no status or headers to go with it.
    expect(answer).not.toHaveProperty("init");
    expect(answer).toMatchObject({ toast: null, user: null });
  });

  test("a toast cookie that was not signed by the shop is ignored", async () => {
    // What a visitor (or another site's link) could plant: remix-toast's unsigned format.
    const forged = Buffer.from(
      JSON.stringify({ __flash_flash__: { toast: { message: "Your account is suspended", type: "error" } } }),
    ).toString("base64");
    const { toast } = await getToast(getRequest("/", { cookie: `toast=${encodeURIComponent(`${forged}.`)}` }));
    expect(toast).toBeUndefined();

    const signed = toastCookie(await redirectWithSuccess("/", "Hello"));
    const tampered = signed.replace(/toast=([^.]*)/, `toast=${encodeURIComponent(forged)}`);
    expect((await getToast(getRequest("/", { cookie: tampered }))).toast).toBeUndefined();
  });
});
