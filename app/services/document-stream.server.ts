import { Transform, type TransformCallback } from "node:stream";

/** The end of the document, which React 18 writes with the shell, before anything streamed after it. */
const DOCUMENT_END = Buffer.from("</body></html>");

/**
 * The page as it leaves the renderer. Two jobs:
 *
 * - React writes a page in pieces of 2 KB and calls `flush()` once it has written all it has. Each
 *   piece handed on alone costs a turn through the web stream, the compression middleware (one zlib
 *   job each) and the socket: two dozen for a 48 KB page. What was written between two flushes goes
 *   on as one chunk, so the shell goes out at once and each streamed part after it too.
 * - React 18 closes the document with the shell, and everything streamed later (suspended parts,
 *   single fetch's data scripts) would follow `</html>`: a second end that browsers forgive and HTML
 *   does not. The closing `</body></html>` is held back and written when the stream ends, so every
 *   streamed part lands inside the body.
 */
export class DocumentStream extends Transform {
  private pending: Buffer[] = [];
  private documentEnd: Buffer | null = null;

  _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.pending.push(chunk);
    callback();
  }

  flush() {
    if (this.pending.length === 0) return;
    let batch = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending);
    this.pending = [];
    if (!this.documentEnd) {
      const at = batch.indexOf(DOCUMENT_END);
      if (at !== -1) {
        this.documentEnd = DOCUMENT_END;
        batch = Buffer.concat([batch.subarray(0, at), batch.subarray(at + DOCUMENT_END.length)]);
      }
    }
    if (batch.length > 0) this.push(batch);
  }

  _flush(callback: TransformCallback) {
    this.flush();
    if (this.documentEnd) this.push(this.documentEnd);
    callback();
  }

  /**
   * React ends its destination again when the destination closes; on a finished stream that
   * only builds an ERR_STREAM_ALREADY_FINISHED error (with its stack) that nobody reads.
   */
  end(...args: unknown[]): this {
    if (this.writableEnded) return this;
    return (super.end as (...rest: unknown[]) => this).apply(this, args);
  }
}
