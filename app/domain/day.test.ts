import { expect, test } from "vitest";
import { filterDay } from "./day";

test("a filter's day is a real calendar day: 2026-02-30 is refused, not read as March 2", () => {
  expect(filterDay.safeParse("2026-01-31").success).toBe(true);
  expect(filterDay.safeParse("2028-02-29").success).toBe(true);
  for (const bad of ["2026-02-30", "2026-13-01", "2026-1-31", "31/01/2026", ""])
    expect(filterDay.safeParse(bad).success, bad).toBe(false);
});
