import { describe, expect, test } from "vitest";
import {
  formatRmaNumber,
  RETURN_CONDITION_WORDS,
  RETURN_CONDITIONS,
  RETURN_REASON_WORDS,
  RETURN_REASONS,
  RETURN_STATUS_WORDS,
  RETURN_STATUSES,
  RMA_NUMBER_BASE,
} from "./returns";

describe("returns", () => {
  test("every reason, status and condition has its own words", () => {
    for (const [values, words] of [
      [RETURN_REASONS, RETURN_REASON_WORDS],
      [RETURN_STATUSES, RETURN_STATUS_WORDS],
      [RETURN_CONDITIONS, RETURN_CONDITION_WORDS],
    ] as const) {
      const read = values.map((value) => (words as Record<string, string>)[value]);
      expect(read.every((text) => typeof text === "string" && text.length > 0)).toBe(true);
      expect(new Set(read).size).toBe(values.length);
    }
  });

  test("a return's number reads RMA- and six digits, from the first one on", () => {
    expect(formatRmaNumber(RMA_NUMBER_BASE + 1)).toBe("RMA-100001");
    expect(formatRmaNumber(RMA_NUMBER_BASE + 42)).toBe("RMA-100042");
  });
});
