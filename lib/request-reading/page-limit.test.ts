import { describe, expect, it } from "vitest";
import { ZPageLimit } from "./page-limit";

describe("ZPageLimit", () => {
  it.each([
    [undefined, 20],
    ["", 20],
    ["1", 1],
    ["100", 100],
    ["101", 100],
    ["5000", 100],
    [250, 100],
  ])("reads %j as %i", (input, expected) => {
    expect(ZPageLimit.parse(input)).toBe(expected);
  });

  it.each(["0", "-3", "diez", "1.5"])("refuses %j", (input) => {
    expect(ZPageLimit.safeParse(input).success).toBe(false);
  });
});
