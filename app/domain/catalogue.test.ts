import { describe, expect, test } from "vitest";
import { partSearchWords, queryTerms, SEARCH_TERM_MAX_LENGTH, searchTerms } from "./catalogue";

describe("search terms", () => {
  const words = partSearchWords("Front Brake Pads Nordwerk Brakes", ["PW-1012", "1K0 698 151"]);
  const terms = searchTerms(words);
  const finds = (typed: string) => {
    const found = queryTerms(typed).every((term) => terms.includes(term));
    // The words say the same as the terms: each term typed starts one of them.
    expect(queryTerms(typed).every((term) => words.some((word) => word.startsWith(term)))).toBe(found);
    return found;
  };

  test("every word typed, and every start of one, finds the part", () => {
    for (const typed of ["brake", "BRAK", "pads front", "nord", "b", "Brakes"]) expect(finds(typed), typed).toBe(true);
    for (const typed of ["rake", "pads rear", "drum"]) expect(finds(typed), typed).toBe(false);
  });

  test("a part or OE number finds it typed with or without dashes and spaces, whole or its start", () => {
    for (const typed of [
      "PW-1012",
      "pw 1012",
      "PW1012",
      "pw10",
      "PW-10",
      "1012",
      "1K0698151",
      "1k0-698-151",
      "1K0 698",
    ]) {
      expect(finds(typed), typed).toBe(true);
    }
    for (const typed of ["PW-1013", "PW1013", "1K0699"]) expect(finds(typed), typed).toBe(false);
  });

  test("typed words are unique, longest first; punctuation alone is nothing to search", () => {
    expect(queryTerms("pad Brake pad")).toEqual(["brake", "pad"]);
    expect(queryTerms(" -- / ")).toEqual([]);
  });

  test("long words are cut to the same length on both sides, so they still find their part", () => {
    const long = "Supercalifragilisticexpialidocious";
    const terms = searchTerms(partSearchWords(long, []));
    expect(terms.every((term) => term.length <= SEARCH_TERM_MAX_LENGTH)).toBe(true);
    expect(queryTerms(long)[0]).toHaveLength(SEARCH_TERM_MAX_LENGTH);
    expect(terms).toContain(queryTerms(long)[0]);
  });
});
