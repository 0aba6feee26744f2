import type { LoaderFunctionArgs } from "@remix-run/node";
import { readAvatar } from "~/services/avatar-store.server";

/**
 * An uploaded profile picture. Its bytes were checked to be PNG, JPEG or WebP when stored; the
 * content type comes from that check, and nosniff and a closed CSP keep a browser from treating it
 * as anything else. Names are random and never reused, so the file can be cached for good.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const avatar = await readAvatar(params.name ?? "");
  if (!avatar) throw new Response("Not Found", { status: 404 });
  return new Response(new Uint8Array(avatar.bytes), {
    headers: {
      "Content-Type": avatar.contentType,
      "Content-Length": String(avatar.bytes.length),
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    },
  });
}
