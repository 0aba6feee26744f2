import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { AVATAR_FILE, AVATAR_TYPES, type AvatarType } from "./avatar";
import { getEnv } from "./env.server";

/**
 * Profile pictures uploaded to our own storage: files under AVATAR_DIR (default DATA_DIR/avatars),
 * named by a random id, served by /avatars/{file}. Only PNG, JPEG and WebP pass, recognised by their
 * first bytes (never by the name or the type the browser claims).
 */
function avatarDir() {
  const env = getEnv();
  return path.resolve(env.AVATAR_DIR ?? path.join(env.DATA_DIR, "avatars"));
}

/** The image type its first bytes show, or null. */
export function imageTypeOf(bytes: Uint8Array): AvatarType | null {
  const starts = (...values: number[]) => values.every((value, index) => bytes[index] === value);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "png";
  if (starts(0xff, 0xd8, 0xff)) return "jpg";
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "webp";
  return null;
}

/** Stores a checked picture and returns its address on our site. */
export async function saveAvatar(bytes: Uint8Array, type: AvatarType) {
  const dir = avatarDir();
  await mkdir(dir, { recursive: true });
  const name = `${randomBytes(16).toString("hex")}.${type}`;
  // Written under a temporary name, then renamed: a reader never sees half a file.
  const temporary = path.join(dir, `${name}.part`);
  await writeFile(temporary, bytes);
  await rename(temporary, path.join(dir, name));
  return `/avatars/${name}`;
}

/** A stored picture and its content type, or null for a name that is not one of ours. */
export async function readAvatar(name: string) {
  const match = AVATAR_FILE.exec(name);
  if (!match) return null;
  try {
    const bytes = await readFile(path.join(avatarDir(), name));
    return { bytes, contentType: AVATAR_TYPES[match[1] as AvatarType] };
  } catch {
    return null;
  }
}
