/**
 * The one part-number resolver: the quick-order pad, the stock import and the catalogue search
 * find a part from what someone typed or an ERP exported. Dashes, spaces and case do not matter
 * (`pw1003`, `PW 1003` and `PW-1003` are PW-1003), and an OE cross-reference number finds the
 * part that replaces it, when exactly one does.
 */
import type { PartView } from "~/domain/catalogue";
import { getPartsByNumberKeys } from "~/models/part.server";
import { partNumberKey } from "~/domain/catalogue";
import { coalesce } from "~/models/coalesce.server";

/** What a typed number is compared by: upper case, letters and digits only. */
export const normalisePartNumber = partNumberKey;

/** Shorter keys are too loose to mean one part (a search for "PW" is a word search). */
const MIN_KEY_LENGTH = 3;
/** Longer than any part or OE number the catalogue stores (32 and 40 characters). */
const MAX_KEY_LENGTH = 40;

export type PartMatch =
  | { part: PartView; via: "part-number" | "oe-number" }
  | { part: null; reason: "unknown" | "ambiguous"; candidates: string[] };

/**
 * Resolves many typed numbers in one read, keyed by their normalised form. A part's own number
 * wins over another part's OE cross-reference; an OE number several parts replace is ambiguous.
 */
export async function findPartsByNumbers(texts: string[]): Promise<Map<string, PartMatch>> {
  const keys = [...new Set(texts.map(normalisePartNumber))].filter(
    (key) => key.length >= MIN_KEY_LENGTH && key.length <= MAX_KEY_LENGTH,
  );
  const found = await getPartsByNumberKeys(keys);
  const matches = new Map<string, PartMatch>();
  for (const key of keys) {
    const own = found.find((entry) => entry.key === key);
    if (own) {
      matches.set(key, { part: own.part, via: "part-number" });
      continue;
    }
    const replacing = found.filter((entry) => entry.oeKeys.includes(key));
    matches.set(
      key,
      replacing.length === 1
        ? { part: replacing[0].part, via: "oe-number" }
        : {
            part: null,
            reason: replacing.length ? "ambiguous" : "unknown",
            candidates: replacing.map((entry) => entry.part.partNumber).sort(),
          },
    );
  }
  return matches;
}

/** The match of one typed number (what is not looked up, too short or too long, is unknown). */
export function matchOf(matches: Map<string, PartMatch>, text: string): PartMatch {
  return matches.get(normalisePartNumber(text)) ?? { part: null, reason: "unknown", candidates: [] };
}

/** The one part a typed number names, or null. Identical look-ups in flight share one read (every search asks). */
export async function findPartByNumber(text: string): Promise<PartView | null> {
  const key = normalisePartNumber(text);
  if (key.length < MIN_KEY_LENGTH || key.length > MAX_KEY_LENGTH) return null;
  return coalesce(`part-number:${key}`, async () => matchOf(await findPartsByNumbers([key]), key).part);
}

/** The message a screen shows for a number that names no single part. */
export function unmatchedMessage(text: string, match: PartMatch) {
  if (match.part) return null;
  return match.reason === "ambiguous"
    ? `${text} is an OE number of several parts (${match.candidates.join(", ")}): use the part number`
    : `Unknown part number ${text}`;
}
