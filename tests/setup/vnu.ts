/**
 * The W3C Nu Html Checker (vnu.jar from the `vnu-jar` package, run with the machine's Java) over
 * documents the shop produced, and byte checks every answer must pass before it is worth checking.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";

export type VnuMessage = { type: string; subType?: string; message: string; extract?: string; lastLine?: number };

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** What is wrong with a document's bytes: a NUL anywhere, or anything that is not UTF-8. */
export function byteProblems(bytes: Uint8Array): string[] {
  const problems: string[] = [];
  const nul = bytes.indexOf(0);
  if (nul !== -1) problems.push(`NUL byte at offset ${nul}`);
  try {
    strictUtf8.decode(bytes);
  } catch {
    problems.push("not valid UTF-8");
  }
  return problems;
}

/** What is wrong with an HTML page's shape: it must end once, with `</html>`, and nothing after it. */
export function documentEndProblems(html: string): string[] {
  const ends = html.match(/<\/html>/gi)?.length ?? 0;
  if (ends !== 1) return [`</html> appears ${ends} times`];
  if (!/<\/html>\s*$/i.test(html))
    return [
      `content after </html>: ${JSON.stringify(html.slice(html.search(/<\/html>/i) + 7, html.search(/<\/html>/i) + 87))}`,
    ];
  return [];
}

/**
 * Checks every document at once (one Java start) and returns, per name, the errors the checker
 * reports (`--errors-only`: warnings and informational messages are not failures).
 */
export async function checkHtml(documents: { name: string; html: string }[]): Promise<Map<string, VnuMessage[]>> {
  const dir = mkdtempSync(path.join(tmpdir(), "vnu-"));
  try {
    const files = documents.map((doc, i) => {
      const file = path.join(dir, `${i}.html`);
      writeFileSync(file, doc.html);
      return file;
    });
    const jar = createRequire(import.meta.url).resolve("vnu-jar/build/dist/vnu.jar");
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(
        "java",
        ["-Xss2m", "-jar", jar, "--errors-only", "--format", "json", "--exit-zero-always", ...files],
        {
          stdio: ["ignore", "ignore", "pipe"],
        },
      );
      let err = "";
      child.stderr.on("data", (chunk: Buffer) => (err += chunk));
      child.on("error", reject);
      child.on("close", (code) => (code === 0 ? resolve(err) : reject(new Error(`vnu exited ${code}: ${err}`))));
    });
    // Java may say first which options it picked up from the environment.
    const { messages } = JSON.parse(output.slice(output.indexOf("{"))) as {
      messages: (VnuMessage & { url: string })[];
    };
    const byName = new Map<string, VnuMessage[]>(documents.map((doc) => [doc.name, []]));
    for (const { url, ...message } of messages) {
      const index = Number(path.basename(new URL(url).pathname, ".html"));
      byName.get(documents[index].name)?.push(message);
    }
    return byName;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
