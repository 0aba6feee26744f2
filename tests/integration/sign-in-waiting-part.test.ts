/**
 * The sign-in page names the part a visitor was about to order (the page it returns to is that
 * part's), and nothing else: other pages, unknown parts and other sites name none.
 */
import { describe, expect, test } from "vitest";
import { loader as loginLoader } from "~/routes/login";
import { createPart } from "../setup/factories";
import { getRequest, loaderArgs, settle } from "../setup/requests";

const open = async (redirectTo: string) =>
  (await (
    await settle(loginLoader(loaderArgs(getRequest(`/login?redirectTo=${encodeURIComponent(redirectTo)}`))))
  ).json()) as { redirectTo: string; waitingPart: { partNumber: string; name: string; img: string } | null };

describe("the sign-in page and the part that is waiting", () => {
  test("a part's page to return to: its number, name and picture", async () => {
    const part = await createPart({ name: "LED Headlight Bulb H7" });
    const data = await open(`/parts/${part.id}`);
    expect(data.redirectTo).toBe(`/parts/${part.id}`);
    expect(data.waitingPart).toEqual({ partNumber: part.partNumber, name: part.name, img: part.img });
    expect((await open(`/parts/${part.id}?deliverTo=home`)).waitingPart?.partNumber).toBe(part.partNumber);
  });

  test.each(["/dashboard", "/parts", "/parts/0123456789abcdef01234567", "https://evil.example/parts/x"])(
    "%s names no part",
    async (redirectTo) => {
      expect((await open(redirectTo)).waitingPart).toBeNull();
    },
  );
});
