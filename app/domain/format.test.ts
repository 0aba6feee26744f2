import { describe, expect, test } from "vitest";
import { truncate } from "./format";

describe("truncate", () => {
  test("text within the limit is left as it is", () => {
    expect(truncate("Brake disc", 10)).toBe("Brake disc");
  });

  test("longer text is cut at the limit, without the trailing space, and ends in an ellipsis", () => {
    expect(truncate("Brake disc, vented", 11)).toBe("Brake disc,…");
    expect(truncate("Brake disc vented", 11)).toBe("Brake disc…");
  });
});
