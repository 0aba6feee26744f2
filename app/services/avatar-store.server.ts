import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import mongoose from "mongoose";
import { RateLimiterMongo, RateLimiterRes } from "rate-limiter-flexible";
import { AVATAR_FILE, AVATAR_TYPES, type AvatarType } from "~/domain/avatar";
import { getEnv } from "./env.server";
import { inWords, THROTTLE_COLLECTION } from "./rate-limit.server";

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

/** The largest side of a stored picture: avatars show at 40 to 160 px. */
const AVATAR_SIDE = 512;

/**
 * The picture decoded and encoded again by sharp, in its own type: what is stored holds pixels
 * only (sharp writes no EXIF, GPS, XMP or ICC metadata unless asked), turned upright by its EXIF
 * orientation first and at most AVATAR_SIDE px a side. Null when the bytes do not decode.
 */
export async function reencodeAvatar(bytes: Uint8Array, type: AvatarType) {
  try {
    // Loaded on the first upload: its native library is a tenth of a second of every start.
    const { default: sharp } = await import("sharp");
    const image = sharp(bytes, { limitInputPixels: 40_000_000 })
      .rotate()
      .resize(AVATAR_SIDE, AVATAR_SIDE, { fit: "inside", withoutEnlargement: true });
    const encoded = type === "png" ? image.png() : type === "jpg" ? image.jpeg({ quality: 85 }) : image.webp();
    return new Uint8Array(await encoded.toBuffer());
  } catch {
    return null;
  }
}

/** Deletes a picture stored by saveAvatar (a replaced or removed one); other addresses are left alone. */
export async function deleteAvatar(photoUrl: string | null | undefined) {
  const name = photoUrl?.startsWith("/avatars/") ? photoUrl.slice("/avatars/".length) : "";
  if (!AVATAR_FILE.test(name)) return;
  await rm(path.join(avatarDir(), name), { force: true });
}

const UPLOADS_PER_USER_PER_HOUR = 10;
let uploads: { limiter: RateLimiterMongo; ready: Promise<void> } | undefined;

/** Counts one upload of this user (each one is decoded and stored); the refusal when over the hour's limit. */
export async function avatarUploadAttempt(userId: string) {
  if (!uploads) {
    const limiter = new RateLimiterMongo({
      storeClient: mongoose.connection,
      tableName: THROTTLE_COLLECTION,
      disableIndexesCreation: true,
      keyPrefix: "avatar_user_hour",
      points: UPLOADS_PER_USER_PER_HOUR,
      duration: 60 * 60,
    });
    const ready = limiter.createIndexes().catch((error: unknown) => {
      uploads = undefined;
      throw error;
    });
    uploads = { limiter, ready };
  }
  await uploads.ready;
  try {
    await uploads.limiter.consume(userId, 1);
    return null;
  } catch (rejected) {
    if (!(rejected instanceof RateLimiterRes)) throw rejected;
    const seconds = Math.max(1, Math.ceil(rejected.msBeforeNext / 1000));
    return `You have changed your picture ${UPLOADS_PER_USER_PER_HOUR} times this hour. Please try again in ${inWords(seconds)}.`;
  }
}

/** Stores a checked, re-encoded picture and returns its address on our site. */
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
