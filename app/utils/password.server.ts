import { hash, verify } from "@node-rs/argon2";
import { dictionary } from "@zxcvbn-ts/language-common";

/** argon2id with the library's defaults. */
export function hashPassword(password: string) {
  return hash(password);
}

export async function verifyPassword(passwordHash: string, password: string) {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * ASVS 2.1.7: a new password is checked against a list of common and breached passwords, offline.
 * The list is the one zxcvbn-ts ships (about 49,000 passwords from public breach corpora, lower case).
 */
let common: Set<string> | undefined;

export const COMMON_PASSWORD =
  "This password is too common: it is on the lists of leaked passwords that attackers try first. Choose another.";

/** The refusal for a new password found on the list, or null. */
export function commonPasswordProblem(password: string) {
  common ??= new Set(dictionary["passwords-common"]);
  return common.has(password.toLowerCase()) ? COMMON_PASSWORD : null;
}
