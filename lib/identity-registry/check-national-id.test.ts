import { describe, expect, it } from "vitest";
import { chileanCheckDigit, nationalIdProblem } from "./check-national-id";

describe("nationalIdProblem", () => {
  const cases: [string, string, boolean][] = [
    ["PER", "12345678", true],
    ["PER", "1234567", false],
    ["PER", "1234567a", false],
    ["CHL", "12345678-5", true],
    ["CHL", "12345678-4", false],
    ["CHL", "12345678", false],
    ["CHL", "10000013-K", true],
    ["PERPASS", "1234567890", true],
    ["PERPASS", "123456789", false],
    ["PERCE", "123456789012", true],
    ["PERCE", "12345678901", false],
    ["ARG", "12345678", false],
  ];
  for (const [nat, docId, ok] of cases) {
    it(`${nat} ${docId} → ${ok ? "valid" : "invalid"}`, () => {
      expect(nationalIdProblem(nat, docId) === null).toBe(ok);
    });
  }
  it("computes K and 0", () => {
    expect(chileanCheckDigit("10000013")).toBe("K");
    expect(chileanCheckDigit("12345678")).toBe("5");
  });
});
