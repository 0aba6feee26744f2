import { getEnv } from "./env.server";

const FORM_TYPES = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;

function refuse(status: 400 | 413, message: string): never {
  throw new Response(message, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/**
 * Every action reads its form through this. A body that is not a web form (JSON, no content type,
 * broken multipart) is a 400 with a plain message, and one larger than BODY_LIMIT_BYTES a 413,
 * counted as it arrives (the server refuses a larger Content-Length before this runs).
 */
export async function readForm(request: Request): Promise<FormData> {
  const contentType = request.headers.get("Content-Type") ?? "";
  if (!FORM_TYPES.test(contentType)) {
    refuse(400, "This address takes a web form (application/x-www-form-urlencoded or multipart/form-data).");
  }
  const body = await readLimitedBody(request, getEnv().BODY_LIMIT_BYTES);
  if (body === null) refuse(413, "That request is too large.");
  try {
    return await new Response(new Uint8Array(body), { headers: { "Content-Type": contentType } }).formData();
  } catch {
    refuse(400, "The form could not be read. Please reload the page and send it again.");
  }
}

/**
 * The body's bytes, or null once it passes `limit` (counted as it arrives; the rest is left unread,
 * since cancelling would drop the connection before the answer goes out).
 */
export async function readLimitedBody(request: Request, limit: number): Promise<Buffer | null> {
  if (Number(request.headers.get("Content-Length") ?? 0) > limit) return null;
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) return null;
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
