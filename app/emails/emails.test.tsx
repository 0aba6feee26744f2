import { describe, expect, test } from "vitest";
import { renderEmail } from "~/services/email.server";
import { EMAIL_SAMPLES as MESSAGES } from "../../tests/fixtures/emails";
import { byteProblems, checkHtml } from "../../tests/setup/vnu";

/**
 * Every email the shop sends, rendered as it sends them (renderEmail), with text that puts
 * multi-byte characters everywhere: strict UTF-8 without NUL in both parts, and HTML that passes
 * the W3C Nu Html Checker. The samples (tests/fixtures/emails.tsx) cover every template; that
 * every link is a link and every message fits a phone is tests/integration/email-layout.test.ts.
 */

describe("every email the shop sends", () => {
  test("both parts are strict UTF-8 without a NUL byte, and the HTML is one HTML5 document", async () => {
    const problems: string[] = [];
    for (const [template, body] of Object.entries(MESSAGES)) {
      const { html, text } = await renderEmail(body);
      for (const [part, content] of [
        ["html", html],
        ["text", text],
      ]) {
        problems.push(
          ...byteProblems(Buffer.from(content, "utf8")).map((problem) => `${template} ${part}: ${problem}`),
        );
        if (content.includes("\uFFFD")) problems.push(`${template} ${part}: a replacement character`);
      }
      if (!html.startsWith("<!DOCTYPE html>")) problems.push(`${template}: ${html.slice(0, 40)}`);
      if (!["Zoë", "Ø"].some((word) => html.includes(word) && text.includes(word)))
        problems.push(`${template}: no accented word came through`);
    }
    expect(problems).toEqual([]);
  });

  test("the HTML passes the W3C Nu Html Checker with zero errors", async () => {
    const documents = await Promise.all(
      Object.entries(MESSAGES).map(async ([template, body]) => ({
        name: template,
        html: (await renderEmail(body)).html,
      })),
    );
    const results = await checkHtml(documents);
    const errors = [...results].flatMap(([template, messages]) => messages.map((m) => `${template}: ${m.message}`));
    expect(errors).toEqual([]);
  }, 60_000);
});
