/** The languages every catalogue carries; Spanish is the default, English the switch. */
export const locales = ["es", "en"] as const;
export type Locale = (typeof locales)[number];

/** Another language's texts for a Spanish table: the same keys and nesting, no key more or less. */
export type Translation<Es> = { [K in keyof Es]: Es[K] extends string ? string : Translation<Es[K]> };

/**
 * One area's texts in every language, written `{ es, en: {…} } satisfies Catalogue<typeof es>`
 * so the compiler rejects a missing or extra English key (docs/architecture.md, Translations).
 */
export type Catalogue<Es> = { [L in Locale]: L extends "es" ? Es : Translation<Es> };

type FlatTexts = Record<string, string>;
type Intersection<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void ? I : never;

/** Several areas' flat catalogues as one table per language, keyed by the union of their keys. */
export type MergedCatalogue<Areas extends Record<string, Catalogue<FlatTexts>>> = { [L in Locale]: Intersection<Areas[keyof Areas][L]> };

/** Later areas would silently win on a shared key; lib/i18n/catalogues.test.ts forbids differing texts. */
export function mergeCatalogues<Areas extends Record<string, Catalogue<FlatTexts>>>(areas: Areas): MergedCatalogue<Areas> {
  const inLanguage = (locale: Locale) => Object.assign({}, ...Object.values(areas).map((area) => area[locale]));
  return { es: inLanguage("es"), en: inLanguage("en") };
}
