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
 * plus the shop's own name and the person's words: their name, their email's name and domain, their
 * company's name. A password must take at least a million guesses by its estimate: the spec's six
 * characters stay the minimum, so six random characters pass, and `zzzzzz`, `letmein!` or
 * `partsworks` do not.
 *
 * zxcvbn prices the digits and symbols after a word as random characters ("2024!" as 100,000
 * guesses), while cracking rules try a word with a year, a short number and a symbol first. A word
 * with digits and symbols around it is priced that way (a year 200 guesses, other digits ten each, a
 * symbol ten) and must take a hundred million guesses, zxcvbn's own "safely unguessable" bar:
 * `Summer2024!`, `Company123!` and a name with a year do not pass.
 */
const MIN_GUESSES = 1_000_000;
const MIN_DECORATED_WORD_GUESSES = 100_000_000;
const SHOP_WORDS = ["partsworks", "parts works", "parts", "works"];
const CALENDAR_DICTIONARIES = new Set(["seasons-en", "months-en"]);

export const COMMON_PASSWORD =
  "This password is too common: it is on the lists of leaked passwords that attackers try first. Choose another.";
export const PERSONAL_PASSWORD =
  "This password is too easy to guess: it is made of the shop's name, your email or your name, or your company's name. Choose another.";
export const SEASON_PASSWORD =
  "This password is too easy to guess: passwords made of a season or a month and a year are among the first that attackers try. Choose another.";
export const DECORATED_WORD_PASSWORD =
  "This password is too easy to guess: a word with a few digits or symbols added is among the first that attackers try. Choose another.";
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

export type PasswordOwner = { email?: string | null; name?: string | null; companyName?: string | null };

/** The person's own words: the email, its parts, their name and their company's (each a first guess). */
function personalWords(person: PasswordOwner) {
  const words = [...SHOP_WORDS];
  const wordsOf = (text: string) => text.split(/[\s@.+_,&/'-]+/).filter((part) => part.length >= 3);
  for (const text of [person.email, person.name, person.companyName]) {
    if (text?.trim()) words.push(text.trim(), ...wordsOf(text));
  }
  return [...new Set(words.map((word) => word.toLowerCase()))];
}

/** Guesses for the digits and symbols around a word, as cracking rules try them. */
function decorationGuesses(decoration: string) {
  let guesses = 1;
  for (const [run] of decoration.matchAll(/\d+|\D/g)) {
    if (/^\d+$/.test(run)) guesses *= /^(19|20)\d\d$/.test(run) ? 200 : 10 ** run.length;
    else guesses *= 10;
  }
  return guesses;
}

type Check = ReturnType<ZxcvbnFactory["check"]>;

const isWord = (match: Check["sequence"][number]) => match.pattern === "dictionary" || match.pattern === "separator";
const dictionaryOf = (result: Check, test: (name: string) => boolean) =>
  result.sequence.some(
    (match) => match.pattern === "dictionary" && test(String((match as { dictionaryName?: unknown }).dictionaryName)),
  );

/** Why a word with digits or symbols around it is refused, or null when it is none or takes enough guesses. */
function decoratedWordProblem(password: string, words: string[]) {
  const [, before, core, after] = /^([^\p{L}]*)(.*?)([^\p{L}]*)$/su.exec(password) ?? [];
  if (!core || !(before || after) || !/\d/.test(before + after)) return null;
  const result = getChecker().check(core, words);
  if (!result.sequence.every(isWord)) return null;
  if (result.guesses * decorationGuesses(before + after) >= MIN_DECORATED_WORD_GUESSES) return null;
  if (dictionaryOf(result, (name) => CALENDAR_DICTIONARIES.has(name))) return SEASON_PASSWORD;
  if (dictionaryOf(result, (name) => name === "userInputs")) return PERSONAL_PASSWORD;
  return DECORATED_WORD_PASSWORD;
}

/** Why a new password is refused (a sentence for the field), or null when it may be used. */
export function passwordProblem(password: string, person: PasswordOwner = {}) {
  commonList ??= new Set(common.dictionary["passwords-common"]);
  if (commonList.has(password.toLowerCase())) return COMMON_PASSWORD;
  // The email's whole name part in it, however much is added: "jane.doe@…" and "jane.doe!2024".
  const local = person.email?.split("@")[0].toLowerCase() ?? "";
  if (local.length >= 4 && password.toLowerCase().includes(local)) return PERSONAL_PASSWORD;
  const words = personalWords(person);
  const result = getChecker().check(password, words);
  if (result.guesses < MIN_GUESSES) {
    if (dictionaryOf(result, (name) => name === "userInputs")) return PERSONAL_PASSWORD;
    if (dictionaryOf(result, (name) => name === "passwords-common")) return COMMON_PASSWORD;
    if (dictionaryOf(result, (name) => CALENDAR_DICTIONARIES.has(name)) && /\d/.test(password)) return SEASON_PASSWORD;
    const why = result.feedback.warning ?? result.feedback.suggestions[0] ?? "it takes few guesses";
    return `${WEAK_PASSWORD}: ${why.replace(/\.$/, "").replace(/^./, (first) => first.toLowerCase())}. Choose another.`;
  }
  return decoratedWordProblem(password, words);
}
