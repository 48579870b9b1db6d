import { describe, expect, it } from "vitest";
import { compareNames } from "./list-identity-reviews";

describe("compareNames (MRZ against confirmed names)", () => {
  it.each([
    ["equal apart from accents and case", { lastName: "QUISPE MAMANI", firstName: "JOSE ANGEL" }, { given: "José Ángel", family: "Quispe Mamani" }, 0],
    ["a given name left out", { lastName: "SOTO", firstName: "ANA MARIA" }, { given: "Ana", family: "Soto" }, 1],
    ["another person", { lastName: "PEREZ", firstName: "LUIS" }, { given: "Ana", family: "Soto" }, 2],
  ])("%s", (_name, mrz, confirmed, differences) => {
    expect(compareNames(mrz, confirmed)).toHaveLength(differences);
  });
});
