/**
 * A vehicle named in a search ("toyota corolla brake pads", "golf wipers", "vw 2015 golf"): the make
 * and model (and a year the model was built) it names, and the rest of the text. The catalogue
 * narrows to parts that fit it, as the vehicle picker does. Pure; the vehicle list is
 * app/content/vehicles.ts, nicknames of makes app/content/search-synonyms.ts.
 */
import { MAKE_NICKNAMES } from "~/content/search-synonyms";
import { VEHICLE_MAKES, type VehicleMake, type VehicleModel } from "~/content/vehicles";

export type VehicleInQuery = { make: string; model: string | null; year: number | null; rest: string };

const fold = (text: string) =>
  text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

type Name = { words: string[]; joined: string };
const nameOf = (text: string): Name => {
  const words = fold(text);
  return { words, joined: words.join("") };
};

const MAKES = VEHICLE_MAKES.map((make) => ({
  make,
  names: [
    nameOf(make.name),
    ...Object.entries(MAKE_NICKNAMES).flatMap(([nick, name]) => (name === make.name ? [nameOf(nick)] : [])),
  ],
  models: make.models.map((model) => ({ model, name: nameOf(model.name) })),
}));

/**
 * A model's name alone stands for its vehicle only when it cannot be mistaken for anything else:
 * four characters or more, a letter among them, and no other make has a model of that name
 * ("golf", "corolla", "rav4"; not "500", "308" or "a3", which need their make).
 */
const countOf = new Map<string, number>();
for (const entry of MAKES)
  for (const { name } of entry.models) countOf.set(name.joined, (countOf.get(name.joined) ?? 0) + 1);
const standsAlone = (name: Name) =>
  name.joined.length >= 4 && /[a-z]/.test(name.joined) && countOf.get(name.joined) === 1;

/** Where `name` occurs in `words` (as its words, or run together as one), and how many words it takes. */
function findName(words: string[], used: Set<number>, name: Name): { start: number; length: number } | null {
  for (let start = 0; start < words.length; start++) {
    if (used.has(start)) continue;
    if (words[start] === name.joined) return { start, length: 1 };
    const span = name.words.length;
    if (
      span > 1 &&
      start + span <= words.length &&
      name.words.every((word, offset) => words[start + offset] === word)
    ) {
      if ([...Array(span).keys()].every((offset) => !used.has(start + offset))) return { start, length: span };
    }
  }
  return null;
}

export function vehicleInQuery(text: string): VehicleInQuery | null {
  const words = fold(text);
  if (words.length === 0) return null;
  const used = new Set<number>();
  const take = (found: { start: number; length: number }) => {
    for (let offset = 0; offset < found.length; offset++) used.add(found.start + offset);
  };

  let make: VehicleMake | null = null;
  let candidates: { model: VehicleModel; name: Name; make: VehicleMake }[] = [];
  for (const entry of MAKES) {
    const found = entry.names.map((name) => findName(words, used, name)).find(Boolean);
    if (found) {
      make = entry.make;
      take(found);
      break;
    }
  }
  candidates = MAKES.flatMap((entry) =>
    entry.models
      .filter(({ name }) => (make ? entry.make === make : standsAlone(name)))
      .map(({ model, name }) => ({ model, name, make: entry.make })),
  );
  let model: VehicleModel | null = null;
  for (const candidate of candidates) {
    const found = findName(words, used, candidate.name);
    if (found) {
      model = candidate.model;
      make = candidate.make;
      take(found);
      break;
    }
  }
  if (!make) return null;

  let year: number | null = null;
  if (model) {
    const index = words.findIndex((word, at) => !used.has(at) && /^\d{4}$/.test(word));
    const typed = index >= 0 ? Number(words[index]) : null;
    if (typed !== null && typed >= model.from && typed <= model.to) {
      year = typed;
      used.add(index);
    }
  }
  const rest = words.filter((_, index) => !used.has(index)).join(" ");
  return { make: make.name, model: model?.name ?? null, year, rest };
}

/** How a page names the vehicle: "Toyota Corolla", "2015 Volkswagen Golf", "Toyota". */
export function vehicleInQueryLabel({ make, model, year }: Pick<VehicleInQuery, "make" | "model" | "year">) {
  return [year, make, model].filter(Boolean).join(" ");
}
