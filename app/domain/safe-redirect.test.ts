import { describe, expect, it } from "vitest";
import { safeRedirect } from "./safe-redirect";

/** Where a browser would go if it followed `Location: <path>` from the shop. */
function browserDestination(location: string) {
  return new URL(location, "https://shop.example.com").origin;
}

describe("safeRedirect keeps sign-in redirects on the shop", () => {
  it.each([
    "/parts",
    "/parts?q=brake&sort=newest",
    "/dashboard/orders#latest",
    "/parts/%E2%82%AC",
    "/search?q=50%25%20off",
  ])("accepts the local path %s", (path) => {
    expect(safeRedirect(path)).toBe(path);
  });

  it.each([
    ["a tab inside /\\t/host", "/\t/evil.example"],
    ["an encoded tab", "/%09/evil.example"],
    ["a double-encoded tab", "/%2509/evil.example"],
    ["a newline", "/\n/evil.example"],
    ["an encoded carriage return", "/%0d/evil.example"],
    ["a NUL", "/%00/evil.example"],
    ["a backslash", "/\\evil.example"],
    ["an encoded backslash", "/%5cevil.example"],
    ["an upper-case encoded backslash", "/%5C%5Cevil.example"],
    ["a protocol-relative URL", "//evil.example"],
    ["an encoded second slash", "/%2fevil.example"],
    ["an absolute URL", "https://evil.example/"],
    ["a javascript: URL", "javascript:alert(1)"],
    ["a relative path", "evil.example"],
    ["a leading space", " /parts"],
    ["broken percent-encoding", "/%E0%A4%A"],
    ["an empty value", ""],
  ])("refuses %s", (_label, value) => {
    expect(safeRedirect(value, "/")).toBe("/");
  });

  it("never produces a Location that a browser resolves off the shop", () => {
    const tricks = [
      "/\t/evil.example",
      "/ /evil.example",
      "/\u3000/evil.example",
      "/.//evil.example",
      "/..//evil.example",
      "/%2e%2e//evil.example",
    ];
    for (const trick of tricks) {
      expect(browserDestination(safeRedirect(trick))).toBe("https://shop.example.com");
    }
  });
});
