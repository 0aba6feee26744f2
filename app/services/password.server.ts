import { hash, verify } from "@node-rs/argon2";
import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import * as common from "@zxcvbn-ts/language-common";
import * as english from "@zxcvbn-ts/language-en";

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
 * ASVS 2.1.7 and 2.1.8: a new password is checked offline against what attackers try first, with
 * zxcvbn-ts: its lists of leaked passwords, English words and names (about 236,000 entries in all,
 * also reversed, capitalised and with l33t substitutions), repeats, sequences and keyboard walks,
 * plus the shop's own name and the person's email and name. A password must take at least a
 * million guesses by its estimate: the spec's six characters stay the minimum, so six random
 * characters pass, and `zzzzzz`, `letmein!` or `partsworks` do not.
 */
const MIN_GUESSES = 1_000_000;
const SHOP_WORDS = ["partsworks", "parts works", "parts", "works"];

export const COMMON_PASSWORD =
  "This password is too common: it is on the lists of leaked passwords that attackers try first. Choose another.";
export const PERSONAL_PASSWORD =
  "This password is too easy to guess: it is made of the shop's name, your email or your name. Choose another.";
export const WEAK_PASSWORD = "This password is too easy to guess";

let checker: ZxcvbnFactory | undefined;
let commonList: Set<string> | undefined;

function getChecker() {
  checker ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
    // Longer passwords are not scored whole (their length alone makes them strong), which bounds the work.
    maxLength: 64,
  });
  return checker;
}

/** The person's own words: the email, its parts and their name (each a first guess at their password). */
function personalWords(person: { email?: string | null; name?: string | null }) {
  const words = [...SHOP_WORDS];
  if (person.email) words.push(person.email, ...person.email.split(/[@.+_-]/).filter((part) => part.length >= 3));
  if (person.name) words.push(person.name, ...person.name.split(/\s+/).filter((part) => part.length >= 3));
  return words.map((word) => word.toLowerCase());
}

/** Why a new password is refused (a sentence for the field), or null when it may be used. */
export function passwordProblem(password: string, person: { email?: string | null; name?: string | null } = {}) {
  commonList ??= new Set(common.dictionary["passwords-common"]);
  if (commonList.has(password.toLowerCase())) return COMMON_PASSWORD;
  // The email's whole name part in it, however much is added: "jane.doe@…" and "jane.doe!2024".
  const local = person.email?.split("@")[0].toLowerCase() ?? "";
  if (local.length >= 4 && password.toLowerCase().includes(local)) return PERSONAL_PASSWORD;
  const result = getChecker().check(password, personalWords(person));
  if (result.guesses >= MIN_GUESSES) return null;
  const dictionaryOf = (name: string) =>
    result.sequence.some((match) => match.pattern === "dictionary" && match.dictionaryName === name);
  if (dictionaryOf("userInputs")) return PERSONAL_PASSWORD;
  if (dictionaryOf("passwords-common")) return COMMON_PASSWORD;
  const why = result.feedback.warning ?? result.feedback.suggestions[0] ?? "it takes few guesses";
  return `${WEAK_PASSWORD}: ${why.replace(/\.$/, "").replace(/^./, (first) => first.toLowerCase())}. Choose another.`;
}
