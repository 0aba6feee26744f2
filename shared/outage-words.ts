/**
 * (shared/: plain modules that the shop, its server and the tools may all import; they import none of them.)
 *
 * How the 503 of a change refused for a full database disk begins (server/db-outage.ts): the error
 * page and its title tell it from an outage by these words.
 */
export const CANNOT_SAVE = "The shop cannot save changes right now";
