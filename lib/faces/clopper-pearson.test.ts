import { describe, expect, it } from "vitest";
import { binomialAtMost, clopperPearson, describeRate } from "./clopper-pearson";

describe("clopperPearson", () => {
  it("0 of n: the upper end is 1 − (α/2)^(1/n) (0/102 → 3.55 %, the issue's figure), the lower end 0", () => {
    for (const n of [1, 28, 44, 102, 264]) {
      const { lower, upper } = clopperPearson(0, n);
      expect(lower).toBe(0);
      expect(upper).toBeCloseTo(1 - 0.025 ** (1 / n), 9);
    }
    expect(clopperPearson(0, 102).upper).toBeCloseTo(0.0355, 4);
  });

  it("n of n mirrors 0 of n", () => {
    for (const n of [1, 22, 44]) {
      const { lower, upper } = clopperPearson(n, n);
      expect(upper).toBe(1);
      expect(lower).toBeCloseTo(0.025 ** (1 / n), 9);
    }
  });

  it("matches published exact intervals", () => {
    // textbook values (e.g. Clopper & Pearson 1934 tables; R binom.test): 5/10 → 0.1871–0.8129, 1/20 → 0.0013–0.2487
    const table: [number, number, number, number][] = [
      [5, 10, 0.1871, 0.8129],
      [1, 20, 0.0013, 0.2487],
      [43, 44, 0.8798, 0.9994],
      [4, 28, 0.0403, 0.3267],
    ];
    for (const [k, n, lower, upper] of table) {
      const interval = clopperPearson(k, n);
      expect(interval.lower, `${k}/${n} lower`).toBeCloseTo(lower, 4);
      expect(interval.upper, `${k}/${n} upper`).toBeCloseTo(upper, 4);
    }
  });

  it("at its ends the binomial tails equal α/2: the interval is exact, not an approximation", () => {
    const { lower, upper } = clopperPearson(9, 44);
    expect(binomialAtMost(9, 44, upper)).toBeCloseTo(0.025, 9);
    expect(1 - binomialAtMost(8, 44, lower)).toBeCloseTo(0.025, 9);
    // a wider confidence gives a wider interval
    const wider = clopperPearson(9, 44, 0.99);
    expect(wider.lower).toBeLessThan(lower);
    expect(wider.upper).toBeGreaterThan(upper);
  });

  it("refuses counts that are not a rate", () => {
    for (const [k, n] of [[-1, 5], [6, 5], [0, 0], [1.5, 4]]) expect(() => clopperPearson(k, n)).toThrow(RangeError);
    expect(() => clopperPearson(1, 4, 1)).toThrow(RangeError);
  });

  it("prints a rate with its upper bound", () => {
    expect(describeRate(0, 102)).toBe("0/102 (0.0 %, 95 % upper bound 3.6 %)");
    expect(describeRate(43, 44)).toBe("43/44 (97.7 %, 95 % upper bound 99.9 %)");
  });
});
