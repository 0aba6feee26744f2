/**
 * Which state, province or territory a postal code belongs to, for the countries whose addresses name
 * one (content/regions.ts). The address check (domain/postal-region.ts) refuses a postal code of one
 * place with another place as the region. A code these tables do not place (a prefix not in use)
 * leaves the customer's region as chosen.
 */

/** First and last of a run of numbers, and the place (a state or territory code) they belong to. */
export type PostalRange = readonly [first: number, last: number, place: string];

/**
 * The USPS allocation of three-digit ZIP code prefixes (000–999) to states, DC, the territories and the
 * armed forces' post offices (AA, AE, AP). Prefixes not in use are left out.
 */
export const US_ZIP3: readonly PostalRange[] = [
  [5, 5, "NY"], [6, 7, "PR"], [8, 8, "VI"], [9, 9, "PR"],
  [10, 27, "MA"], [28, 29, "RI"], [30, 38, "NH"], [39, 49, "ME"],
  [50, 54, "VT"], [55, 55, "MA"], [56, 59, "VT"], [60, 69, "CT"], [70, 89, "NJ"], [90, 98, "AE"],
  [100, 149, "NY"], [150, 196, "PA"], [197, 199, "DE"],
  [200, 200, "DC"], [201, 201, "VA"], [202, 205, "DC"], [206, 212, "MD"], [214, 219, "MD"],
  [220, 246, "VA"], [247, 268, "WV"], [270, 289, "NC"], [290, 299, "SC"],
  [300, 319, "GA"], [320, 339, "FL"], [340, 340, "AA"], [341, 342, "FL"], [344, 344, "FL"],
  [346, 347, "FL"], [349, 349, "FL"], [350, 352, "AL"], [354, 369, "AL"], [370, 385, "TN"],
  [386, 397, "MS"], [398, 399, "GA"],
  [400, 418, "KY"], [420, 427, "KY"], [430, 459, "OH"], [460, 479, "IN"], [480, 499, "MI"],
  [500, 516, "IA"], [520, 528, "IA"], [530, 532, "WI"], [534, 535, "WI"], [537, 549, "WI"],
  [550, 551, "MN"], [553, 567, "MN"], [569, 569, "DC"], [570, 577, "SD"], [580, 588, "ND"],
  [590, 599, "MT"],
  [600, 620, "IL"], [622, 629, "IL"], [630, 631, "MO"], [633, 641, "MO"], [644, 658, "MO"],
  [660, 662, "KS"], [664, 679, "KS"], [680, 681, "NE"], [683, 693, "NE"],
  [700, 701, "LA"], [703, 708, "LA"], [710, 714, "LA"], [716, 729, "AR"], [730, 731, "OK"],
  [733, 733, "TX"], [734, 741, "OK"], [743, 749, "OK"], [750, 770, "TX"], [772, 799, "TX"],
  [800, 816, "CO"], [820, 831, "WY"], [832, 838, "ID"], [840, 847, "UT"], [850, 850, "AZ"],
  [852, 853, "AZ"], [855, 857, "AZ"], [859, 860, "AZ"], [863, 865, "AZ"], [870, 875, "NM"],
  [877, 884, "NM"], [885, 885, "TX"], [889, 891, "NV"], [893, 895, "NV"], [897, 898, "NV"],
  [900, 908, "CA"], [910, 928, "CA"], [930, 961, "CA"], [962, 966, "AP"], [967, 968, "HI"],
  [970, 979, "OR"], [980, 986, "WA"], [988, 994, "WA"], [995, 999, "AK"],
]; // prettier-ignore

/** Five-digit ZIP codes whose place is not their prefix's (read before US_ZIP3). */
export const US_ZIP5: readonly PostalRange[] = [
  [6390, 6390, "NY"], // Fishers Island
  [83414, 83414, "WY"], // Alta
  [96799, 96799, "AS"],
  [96910, 96932, "GU"], [96939, 96940, "PW"], [96941, 96944, "FM"], [96950, 96952, "MP"],
  [96960, 96960, "MH"], [96970, 96970, "MH"],
]; // prettier-ignore

/**
 * The places of US_ZIP3 and US_ZIP5 that are not in the state list: each territory and freely associated
 * state has its own ISO country code (its addresses take it as the country, named as in countries.ts);
 * the armed forces' post offices have none.
 */
export const US_ZIP_PLACES: Record<string, { name: string; country: string | null }> = {
  PR: { name: "Puerto Rico", country: "PR" },
  VI: { name: "U.S. Virgin Islands", country: "VI" },
  GU: { name: "Guam", country: "GU" },
  AS: { name: "American Samoa", country: "AS" },
  MP: { name: "Northern Mariana Islands", country: "MP" },
  FM: { name: "Micronesia", country: "FM" },
  MH: { name: "Marshall Islands", country: "MH" },
  PW: { name: "Palau", country: "PW" },
  AA: { name: "Armed Forces Americas (APO/FPO)", country: null },
  AE: { name: "Armed Forces Europe (APO/FPO)", country: null },
  AP: { name: "Armed Forces Pacific (APO/FPO)", country: null },
};

/** Canada Post: the first letter of a postal code and the province or territory it serves. */
export const CA_FIRST_LETTER: Record<string, readonly string[]> = {
  A: ["NL"], B: ["NS"], C: ["PE"], E: ["NB"], G: ["QC"], H: ["QC"], J: ["QC"],
  K: ["ON"], L: ["ON"], M: ["ON"], N: ["ON"], P: ["ON"], R: ["MB"], S: ["SK"], T: ["AB"],
  V: ["BC"], X: ["NT", "NU"], Y: ["YT"],
}; // prettier-ignore

/** Australia Post: postcode ranges and the state or territory they serve. */
export const AU_POSTCODES: readonly PostalRange[] = [
  [200, 299, "ACT"], [800, 999, "NT"], [1000, 2599, "NSW"], [2600, 2618, "ACT"],
  [2619, 2899, "NSW"], [2900, 2920, "ACT"], [2921, 2999, "NSW"], [3000, 3999, "VIC"],
  [4000, 4999, "QLD"], [5000, 5999, "SA"], [6000, 6999, "WA"], [7000, 7999, "TAS"],
  [8000, 8999, "VIC"], [9000, 9999, "QLD"],
]; // prettier-ignore

/** Australian postcodes that cross a border: each serves places in all the states named. */
export const AU_SHARED_POSTCODES: Record<number, readonly string[]> = {
  872: ["NT", "SA", "WA"],
  2406: ["NSW", "QLD"],
  2540: ["NSW", "ACT"],
  2611: ["ACT", "NSW"],
  2618: ["ACT", "NSW"],
  2620: ["ACT", "NSW"],
  3585: ["VIC", "NSW"],
  3586: ["VIC", "NSW"],
  3644: ["VIC", "NSW"],
  3691: ["VIC", "NSW"],
  3707: ["VIC", "NSW"],
  4377: ["QLD", "NSW"],
  4380: ["QLD", "NSW"],
  4383: ["QLD", "NSW"],
  4385: ["QLD", "NSW"],
  4825: ["QLD", "NT"],
};
