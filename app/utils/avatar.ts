/**
 * Avatars come only from the account's Google picture (an https address on googleusercontent.com)
 * or our own default picture: never from an address someone typed, which every visitor's browser
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
