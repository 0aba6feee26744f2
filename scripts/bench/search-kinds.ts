/**
 * The searches both search benches ask (scripts/bench/search.ts on the database,
 * scripts/bench/search-in-process.ts on an in-process library), by kind, against the synthetic
 * catalogue of seed-catalogue.ts.
 */
const WORDS = ["brake", "filter", "pump", "plug", "radiator", "alternator", "sensor", "bearing", "caliper", "mirror"];
const MATERIALS = ["ceramic", "forged", "aluminium", "stainless", "carbon", "reinforced"];
const swap = (word: string) => `${word.slice(0, 2)}${word[3]}${word[2]}${word.slice(4)}`;
const cycle = <T>(list: T[], count: number) => Array.from({ length: count }, (_, index) => list[index % list.length]);
const number = (index: number) => `BN-${String(index).padStart(6, "0")}`;

/** What buyers type, by kind: `each` different texts of every kind. */
export function searchKinds(each: number): Record<string, string[]> {
  return {
    "a word": cycle(WORDS, each).map((word, index) => (index < WORDS.length ? word : word.slice(0, 4))),
    "two words": cycle(WORDS, each).map((word, index) => `${MATERIALS[index % MATERIALS.length]} ${word}`),
    plurals: cycle(WORDS, each).map((word, index) => `${MATERIALS[index % MATERIALS.length]} ${word}s`),
    "synonyms and spellings": cycle(
      ["break pads", "aluminum radiator", "headlamp bulb", "damper", "muffler", "shocks", "tail light", "rotor"],
      each,
    ),
    "run together / apart": cycle(
      ["sparkplug", "waterpump", "oilfilter", "airfilter", "wiper blades", "tail lamps"],
      each,
    ),
    "typing errors": cycle(
      WORDS.filter((word) => word.length >= 5),
      each,
    ).map((word, index) => (index % 2 ? swap(word) : `${word.slice(0, -1)}`)),
    "vehicle in the text": cycle(
      ["golf brake", "corolla filter", "civic pump", "toyota", "focus radiator", "bmw 3 series sensor", "octavia plug"],
      each,
    ),
    "one part number": Array.from({ length: each }, (_, index) => number(1 + index * 997)),
    "several part numbers": Array.from(
      { length: each },
      (_, index) => `${number(1 + index * 991)}, ${number(2 + index * 977)} ${number(3 + index * 953)}`,
    ),
    "nothing found (did you mean)": cycle(
      ["zzqx", "radiator wipers", "BN-9999999", "qwrtplk", "ceramic thermostat mirror"],
      each,
    ).map((text, index) => (index < 5 ? text : `${text} ${index}`)),
  };
}
