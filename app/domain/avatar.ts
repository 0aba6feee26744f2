/** The pictures a user may upload, by the extension of the stored file. */
export const AVATAR_TYPES = { png: "image/png", jpg: "image/jpeg", webp: "image/webp" } as const;
export type AvatarType = keyof typeof AVATAR_TYPES;
/** The largest picture accepted (it must also fit in one request, BODY_LIMIT_BYTES). */
export const AVATAR_MAX_BYTES = 512 * 1024;
/** A stored picture's file name: a random id and its type. */
export const AVATAR_FILE = /^[a-f0-9]{32}\.(png|jpg|webp)$/;

/** A picture the user uploaded to our own storage, or the Google picture (see googlePicture); else null. */
export function safeAvatar(url: unknown): string | null {
  if (typeof url === "string" && url.startsWith("/avatars/") && AVATAR_FILE.test(url.slice("/avatars/".length))) {
    return url;
  }
  return googlePicture(url);
}

/**
 * The Google account's picture (an https address on googleusercontent.com), else null. With an
 * uploaded picture and our default one, the only avatars shown: never from an address someone typed, which every visitor's browser
 * would fetch (tracking them, or showing whatever that server chooses).
 */
export function googlePicture(url: unknown): string | null {
  if (typeof url !== "string" || url.length > 2048) return null;
  try {
    const parsed = new URL(url);
    const host = parsed.hostname.toLowerCase();
    const google = host === "googleusercontent.com" || host.endsWith(".googleusercontent.com");
    return parsed.protocol === "https:" && google && !parsed.username && !parsed.password && !parsed.port
      ? parsed.toString()
      : null;
  } catch {
    return null;
  }
}
