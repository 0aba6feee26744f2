import { describe, expect, it } from "vitest";
import { googlePicture, safeAvatar } from "./avatar";

const stored = `/avatars/${"a".repeat(32)}.png`;

describe("avatars shown to others", () => {
  it.each([
    [stored, stored],
    [`/avatars/${"0f".repeat(16)}.webp`, `/avatars/${"0f".repeat(16)}.webp`],
    ["https://lh3.googleusercontent.com/a/photo", "https://lh3.googleusercontent.com/a/photo"],
    ["https://googleusercontent.com/x", "https://googleusercontent.com/x"],
  ])("%j is shown", (url, shown) => {
    expect(safeAvatar(url)).toBe(shown);
  });
  it.each([
    "/avatars/../session-secret",
    `/avatars/${"a".repeat(32)}.svg`,
    `/avatars/${"A".repeat(32)}.png`,
    "http://lh3.googleusercontent.com/a/photo",
    "https://googleusercontent.com.evil.example/a",
    "https://evilgoogleusercontent.com/a",
    "https://user:pass@lh3.googleusercontent.com/a",
    "https://lh3.googleusercontent.com:8443/a",
    "javascript:alert(1)",
    `https://lh3.googleusercontent.com/${"a".repeat(2100)}`,
    "not a url",
    42,
    null,
  ])("%j is not", (url) => {
    expect(safeAvatar(url)).toBeNull();
  });
  it("takes only Google's pictures from addresses", () => {
    expect(googlePicture(stored)).toBeNull();
  });
});
