import { describe, expect, test } from "vitest";
import { z } from "zod";
import { isPlainText, plainText, plainTextMessage } from "./plain-text";

describe("plain text", () => {
  test("takes the words people type, in any script, with accents, emoji and punctuation", () => {
    for (const text of [
      "Lakeside Fleet GmbH & Co. KG",
      "Zoë O'Brien-Łukasiewicz",
      "株式会社 部品",
      "שלום",
      "Ok 👍",
      "",
    ]) {
      expect(isPlainText(text), text).toBe(true);
    }
  });

  test("refuses every C0 and C1 control character and DEL in a one-line field, tabs and line breaks included", () => {
    const controls = [
      ...Array.from({ length: 0x20 }, (_, code) => code),
      0x7f,
      ...Array.from({ length: 0x20 }, (_, code) => 0x80 + code),
    ];
    for (const code of controls) {
      expect(isPlainText(`Acme${String.fromCharCode(code)}Ltd`), code.toString(16)).toBe(false);
    }
  });

  test("a multi-line field keeps LF and CR LF, and refuses the other controls (NUL, ESC, tab, NEL)", () => {
    expect(isPlainText("Two units bent\r\nThird one fine\nThanks", { multiline: true })).toBe(true);
    for (const text of ["a\u0000b", "a\u001b[31mb", "a\tb", "a\u0085b", "a\u007fb", "a\u000bb"]) {
      expect(isPlainText(text, { multiline: true }), JSON.stringify(text)).toBe(false);
    }
  });

  test("refuses bidi overrides and isolates, zero-width characters, XML's noncharacters and unpaired surrogates", () => {
    const invisible = [
      ...[0x202a, 0x202b, 0x202c, 0x202d, 0x202e],
      ...[0x2066, 0x2067, 0x2068, 0x2069],
      ...[0x200b, 0x200c, 0x200d, 0x2060, 0xfeff],
      ...[0xfffe, 0xffff, 0xd800, 0xdfff],
    ];
    for (const code of invisible) {
      const text = `Main${String.fromCharCode(code)} Street`;
      expect(isPlainText(text), code.toString(16)).toBe(false);
      expect(isPlainText(text, { multiline: true }), code.toString(16)).toBe(false);
    }
    // A pair of surrogates is one character (an emoji), and fine.
    expect(isPlainText("\ud83d\ude00")).toBe(true);
  });

  test("as a zod rule: the field's own message, and an absent optional value passes", () => {
    const schema = plainText(z.string().trim().max(20).optional(), "Company name");
    expect(schema.safeParse(undefined).success).toBe(true);
    expect(schema.safeParse("  Acme  ").data).toBe("Acme");
    const refused = schema.safeParse("Acme\u001b[2J");
    expect(refused.error?.issues[0].message).toBe(plainTextMessage("Company name"));
    expect(plainTextMessage("Note", { multiline: true })).toBe(
      "Note cannot contain control characters or invisible formatting characters",
    );
  });
});
