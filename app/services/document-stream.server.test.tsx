import { Suspense } from "react";
import { renderToPipeableStream } from "react-dom/server";
import { describe, expect, test } from "vitest";
import { DocumentStream } from "./document-stream.server";

/** Renders an element the way entry.server.tsx does and returns the bytes a visitor receives. */
function renderBytes(element: React.ReactElement, { waitForAll = false } = {}) {
  return new Promise<Buffer>((resolve, reject) => {
    const body = new DocumentStream();
    const chunks: Buffer[] = [];
    body.on("data", (chunk: Buffer) => chunks.push(chunk));
    body.on("end", () => resolve(Buffer.concat(chunks)));
    body.on("error", reject);
    const { pipe } = renderToPipeableStream(element, {
      onShellReady: () => !waitForAll && pipe(body),
      onAllReady: () => waitForAll && pipe(body),
      onShellError: reject,
    });
  });
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

// Characters of two, three and four bytes, as a part name, a customer's name or a pending label carry them.
const MULTI_BYTE = "é…×✓€ü😀ß";

describe("the renderer's bytes", () => {
  test("no NUL and strict UTF-8 whatever the offset of a multi-byte character in React's 2 KB view", async () => {
    // React copies short strings into a 2,048-byte view. An ASCII prefix of every length up to past
    // one view, in pieces short enough to be copied, puts each multi-byte character after it across
    // the view's end at every possible offset.
    const bad: number[] = [];
    for (let shift = 0; shift <= 2_100; shift++) {
      const prefix = "a".repeat(shift);
      const pieces = prefix.match(/.{1,400}/g) ?? [];
      const bytes = await renderBytes(
        <div>
          {pieces.map((piece, i) => (
            <span key={i}>{piece}</span>
          ))}
          <button data-pending-text={`Adding${MULTI_BYTE}`}>{MULTI_BYTE}</button>
        </div>,
      );
      const html = strictUtf8.decode(bytes);
      if (
        bytes.includes(0) ||
        !html.includes(`<button data-pending-text="Adding${MULTI_BYTE}">${MULTI_BYTE}</button>`)
      ) {
        bad.push(shift);
      }
    }
    expect(bad).toEqual([]);
  });
});

describe("one document per page", () => {
  /** A value that suspends the render until it arrives, as a deferred loader's promise does. */
  function later(promise: Promise<string>) {
    let value: string | undefined;
    const ready = promise.then((result) => void (value = result));
    return () => {
      if (value === undefined) throw ready;
      return value;
    };
  }

  function Late({ read }: { read: () => string }) {
    return <p id="late">{read()}</p>;
  }

  function Page({ read }: { read: () => string }) {
    return (
      <html lang="en">
        <head>
          <title>Page</title>
        </head>
        <body>
          <main>Shell</main>
          <Suspense fallback={<p>Loading…</p>}>
            <Late read={read} />
          </Suspense>
        </body>
      </html>
    );
  }

  test("what streams after the shell is written inside the body, and the document ends once", async () => {
    let settle: (value: string) => void = () => {};
    const value = new Promise<string>((resolve) => (settle = resolve));
    const rendering = renderBytes(<Page read={later(value)} />);
    setTimeout(() => settle("Streamed reviews"), 20);
    const html = (await rendering).toString("utf8");

    expect(html).toContain("Streamed reviews");
    expect(html.indexOf("Streamed reviews")).toBeLessThan(html.indexOf("</body>"));
    expect(html.match(/<\/html>/g)).toHaveLength(1);
    expect(html.endsWith("</body></html>")).toBe(true);
  });

  test("a page rendered whole (for crawlers) also ends with its closing tags", async () => {
    const html = (
      await renderBytes(<Page read={later(Promise.resolve("All at once"))} />, { waitForAll: true })
    ).toString();
    expect(html).toContain("All at once");
    expect(html.endsWith("</body></html>")).toBe(true);
    expect(html.match(/<\/body>/g)).toHaveLength(1);
  });
});
