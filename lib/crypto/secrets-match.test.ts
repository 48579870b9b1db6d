import { describe, expect, it } from "vitest";
import { secretsMatch } from "./secrets-match";

describe("secretsMatch", () => {
  const cases: [string | null | undefined, string, boolean][] = [
    ["s3cret-token", "s3cret-token", true],
    ["s3cret-tokeN", "s3cret-token", false],
    ["s3cret", "s3cret-token", false],
    ["", "s3cret-token", false],
    [null, "s3cret-token", false],
    [undefined, "s3cret-token", false],
  ];
  for (const [presented, expected, result] of cases) it(`${String(presented)} → ${result}`, () => expect(secretsMatch(presented, expected)).toBe(result));
});
