import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { locales } from "./catalogue";
import { dashboardAreas } from "./messages";
import { signerAreas } from "@/components/signer/signer-messages";

type Texts = { [key: string]: string | Texts };
type AnyCatalogue = Record<(typeof locales)[number], Texts>;

const root = path.resolve(__dirname, "../..");

/** Every file named `*-messages.ts` under lib/ and components/: the place docs/architecture.md gives catalogues. */
const catalogueFiles = ["lib", "components"].flatMap((folder) =>
  (fs.readdirSync(path.join(root, folder), { recursive: true }) as string[])
    .filter((file) => file.endsWith("-messages.ts"))
    .map((file) => path.join(folder, file)),
);

const isCatalogue = (value: unknown): value is AnyCatalogue =>
  typeof value === "object" && value !== null && locales.every((locale) => typeof (value as Record<string, unknown>)[locale] === "object");

function flatten(texts: Texts, prefix = ""): Map<string, unknown> {
  return new Map(
    Object.entries(texts).flatMap(([key, value]): [string, unknown][] =>
      value && typeof value === "object" ? [...flatten(value, `${prefix}${key}.`)] : [[`${prefix}${key}`, value]],
    ),
  );
}

const placeholders = (text: string) => [...new Set(text.match(/\{\w+\}/g) ?? [])].sort().join(" ");

/** What a catalogue lacks or gets wrong in a language, measured against Spanish. */
function catalogueFaults(catalogue: AnyCatalogue): string[] {
  const spanish = flatten(catalogue.es);
  const faults: string[] = [];
  for (const locale of locales) {
    const texts = flatten(catalogue[locale]);
    for (const [key, text] of texts) {
      if (typeof text !== "string" || text.trim() === "") faults.push(`${locale} ${key}: not a text`);
      else if (!spanish.has(key)) faults.push(`${locale} ${key}: not in Spanish`);
      else if (placeholders(text) !== placeholders(String(spanish.get(key)))) faults.push(`${locale} ${key}: placeholders {${placeholders(text)}} differ from Spanish`);
    }
    for (const key of spanish.keys()) if (!texts.has(key)) faults.push(`${locale} ${key}: missing`);
  }
  return faults;
}

/** Keys two areas of one merged table both define with different texts: the later would silently win. */
function collisions(areas: Record<string, AnyCatalogue>): string[] {
  const found: string[] = [];
  const entries = Object.entries(areas);
  for (const [i, [first, a]] of entries.entries()) {
    for (const [second, b] of entries.slice(i + 1)) {
      for (const locale of locales) {
        for (const [key, text] of flatten(a[locale])) {
          const other = flatten(b[locale]).get(key);
          if (other !== undefined && other !== text) found.push(`${locale} ${key}: ${first} and ${second} differ`);
        }
      }
    }
  }
  return found;
}

describe("translation catalogues", () => {
  it("finds the catalogue files where the architecture says they live", () => {
    expect(catalogueFiles.length).toBeGreaterThanOrEqual(16);
  });

  it.each(catalogueFiles)("%s: every language has every Spanish key, with the same placeholders", async (file) => {
    const exported = (await import(path.join(root, file))) as Record<string, unknown>;
    const catalogues = Object.values(exported).filter(isCatalogue);
    expect(catalogues.length).toBeGreaterThan(0);
    for (const catalogue of catalogues) expect(catalogueFaults(catalogue)).toEqual([]);
  });

  it("merges every area file of lib/i18n into the dashboard table, and every signer area into the signer table", async () => {
    const exported = async (folder: string) =>
      (await Promise.all(catalogueFiles.filter((file) => path.dirname(file) === folder).map(async (file) => Object.values(await import(path.join(root, file))))))
        .flat()
        .filter(isCatalogue);
    const merged = [...Object.values(dashboardAreas), ...Object.values(signerAreas)];
    const signerTable = (await import("@/components/signer/signer-messages")).signerMessages;
    expect((await exported(path.join("lib", "i18n"))).filter((catalogue) => !merged.includes(catalogue as never))).toEqual([]);
    expect((await exported(path.join("components", "signer"))).filter((catalogue) => catalogue !== signerTable && !merged.includes(catalogue as never))).toEqual([]);
  });

  it("has no key that two areas of one table define with different texts", () => {
    expect(collisions(dashboardAreas)).toEqual([]);
    expect(collisions(signerAreas)).toEqual([]);
  });

  it("catches a missing key, an extra key, a changed placeholder and an empty text (counter-test)", () => {
    const forged: AnyCatalogue = {
      es: { "a.one": "Hola, {name}", "a.two": "Dos", group: { inner: "Dentro" } },
      en: { "a.one": "Hello, {nombre}", "a.three": "Three", group: { inner: " " } },
    };
    expect(catalogueFaults(forged).sort()).toEqual([
      "en a.one: placeholders {{nombre}} differ from Spanish",
      "en a.three: not in Spanish",
      "en a.two: missing",
      "en group.inner: not a text",
    ]);
    const genuine: AnyCatalogue = { es: { "a.one": "Hola, {name}", group: { inner: "Dentro" } }, en: { "a.one": "{name}, hello", group: { inner: "Inside" } } };
    expect(catalogueFaults(genuine)).toEqual([]);
  });

  it("catches two areas giving one key different texts, and lets them share an identical one (counter-test)", () => {
    const first: AnyCatalogue = { es: { "x.same": "Igual", "x.clash": "Uno" }, en: { "x.same": "Same", "x.clash": "One" } };
    const second: AnyCatalogue = { es: { "x.same": "Igual", "x.clash": "Uno" }, en: { "x.same": "Same", "x.clash": "Another" } };
    expect(collisions({ first, second })).toEqual(["en x.clash: first and second differ"]);
    expect(collisions({ first, again: first })).toEqual([]);
  });
});
