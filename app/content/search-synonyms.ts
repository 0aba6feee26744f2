/**
 * Words buyers type for what the catalogue calls something else. Each line is one group: a search
 * for any of its entries also finds parts named with the others. An entry may be two words ("shock
 * absorber"); write entries singular and in lower case (plurals are found anyway). Shared by server
 * and browser; the search reads it on every request, so a change here needs no re-indexing.
 */
export const SEARCH_SYNONYMS: readonly (readonly string[])[] = [
  // Names for the same part.
  ["headlamp", "headlight", "head lamp", "head light"],
  ["tail lamp", "tail light", "rear lamp", "rear light"],
  ["shock absorber", "shock", "damper"],
  ["brake", "break"],
  ["windscreen", "windshield"],
  ["wiper", "wiper blade"],
  ["tyre", "tire"],
  ["exhaust", "muffler", "silencer"],
  ["spark plug", "sparkplug"],
  ["alternator", "generator"],
  ["battery", "accumulator"],
  ["bulb", "lamp"],
  ["coolant", "antifreeze"],
  ["rotor", "disc", "disk"],
  ["gasket", "seal"],
  ["bonnet", "hood"],
  ["boot", "trunk"],
  ["gearbox", "transmission"],
  ["petrol", "gasoline"],
  // Trade, British and American names for the same part, by category.
  ["anti roll bar", "antiroll bar", "sway bar", "stabilizer bar", "stabiliser bar"],
  ["track rod end", "tie rod end"],
  ["track rod", "tie rod"],
  ["fan belt", "serpentine belt", "drive belt", "auxiliary belt", "poly v belt", "v ribbed belt"],
  ["wishbone", "control arm", "track control arm", "a arm"],
  ["indicator", "turn signal", "blinker"],
  ["sump", "oil pan"],
  ["handbrake", "hand brake", "parking brake", "emergency brake", "e brake"],
  ["number plate", "license plate", "licence plate"],
  ["wing mirror", "door mirror", "side mirror"],
  ["gear stick", "gear lever", "gear shift", "shifter"],
  ["cv joint", "constant velocity joint", "drive shaft joint"],
  ["drop link", "stabilizer link", "sway bar link", "anti roll bar link"],
  ["cambelt", "timing belt"],
  ["tickover", "idle"],
  ["spanner", "wrench"],
  ["lorry", "truck"],
  // British and American spellings.
  ["aluminium", "aluminum"],
  ["colour", "color"],
  ["grey", "gray"],
  ["centre", "center"],
  ["fibre", "fiber"],
  ["litre", "liter"],
  ["metre", "meter"],
  ["caliper", "calliper"],
  ["mould", "mold"],
  ["vapour", "vapor"],
];

/**
 * Other names of makes as buyers type them, each with the make it means (app/content/vehicles.ts).
 */
export const MAKE_NICKNAMES: Readonly<Record<string, string>> = {
  vw: "Volkswagen",
  vauxhall: "Opel",
  chevy: "Chevrolet",
  merc: "Mercedes-Benz",
  mercedes: "Mercedes-Benz",
  benz: "Mercedes-Benz",
  alfa: "Alfa Romeo",
  beemer: "BMW",
};
