import { describe, expect, it } from "vitest";
import { generateTxToken } from "./generate-tx-token";

describe("generateTxToken", () => {
  it("gives 20 alphanumerics, different each time", () => {
    const tokens = Array.from({ length: 1000 }, generateTxToken);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it("draws every character equally often: byte % 62 without rejecting the tail would favour A–H by a quarter", () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 10_000; i++) for (const char of generateTxToken()) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 200,000 characters: 3,226 each expected, standard deviation 56; a biased A–H would be near 3,900
    const expected = 200_000 / 62;
    for (const [char, count] of counts) expect(Math.abs(count - expected), char).toBeLessThan(expected * 0.1);
  });
});
