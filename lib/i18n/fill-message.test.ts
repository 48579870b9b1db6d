import { describe, expect, it } from "vitest";
import { fillMessage } from "./fill-message";

describe("fillMessage", () => {
  it("fills every placeholder and drops unknown ones", () => {
    expect(fillMessage("{who} firmó {n} documento(s) {missing}", { who: "Ana", n: 2 })).toBe("Ana firmó 2 documento(s) ");
  });
});
