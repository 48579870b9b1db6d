import type fontkit from "@pdf-lib/fontkit";

type ParsedFont = ReturnType<(typeof fontkit)["create"]>;

// Latin-1 signs no name, e-mail or stamp label uses: each glyph left out is ~110 bytes less per stamp.
const RARE_SIGNS = new Set(Array.from("¢£¤¥¦§¨©¬\u00ad®¯±²³µ¶¸¹¼½¾×÷", (c) => c.codePointAt(0)!));

/**
 * ASCII, the Latin-1 letters and the punctuation the stamp itself prints: the characters a stamp
 * shapes without fontkit's layout. Anything else (another script, a combining mark) takes the general path.
 */
export const PLAIN_CODE_POINTS: readonly number[] = [
  ...range(0x20, 0x7e),
  ...range(0xa1, 0xff).filter((c) => !RARE_SIGNS.has(c)),
  ...Array.from("–—‘’‚“”„…•€", (c) => c.codePointAt(0)!),
];

// fontkit's DefaultShaper: every GSUB feature it may apply to horizontal text without user features.
const APPLIED_FEATURES = new Set(["rvrn", "ltra", "ltrm", "frac", "numr", "dnom", "ccmp", "locl", "rlig", "calt", "clig", "liga", "rclt"]);
// The script fontkit picks for Latin letters, and the one for digits and punctuation alone.
const SCRIPTS = ["latn", "DFLT"];

interface Ligature {
  components: number[];
  glyph: number;
}

/**
 * The glyphs fontkit's layout gives for text made of PLAIN_CODE_POINTS, computed from the cmap and
 * the font's own ligature rules: pdf-lib measures and encodes every string through a full layout,
 * which was half of a stamp's CPU. Derived from the font's GSUB once per process; a rule it cannot
 * prove inert (a contextual lookup that may fire) takes the characters it touches out of the plain set.
 */
export class PlainTextShaper {
  private readonly glyphOf = new Map<number, number>();
  private readonly advanceOf = new Map<number, number>();
  private readonly ligatureLookups: Map<number, Ligature[]>[] = [];
  /** pdf-lib's scale from font units to 1000-unit glyph space. */
  private readonly scale: number;

  constructor(font: ParsedFont) {
    this.scale = 1000 / font.unitsPerEm;
    const cmap = new Map<number, number>();
    for (const codePoint of PLAIN_CODE_POINTS) {
      const id = font.glyphForCodePoint(codePoint).id;
      if (id !== 0) cmap.set(codePoint, id);
    }
    const lookups = appliedLookups(font);
    const ligatureOutputs = new Set<number>();
    for (const lookup of lookups) {
      if (!isPlainLigatureLookup(lookup)) continue;
      const rules = ligatureRules(lookup);
      this.ligatureLookups.push(rules);
      for (const list of rules.values()) for (const rule of list) ligatureOutputs.add(rule.glyph);
    }
    const reachable = new Set([...cmap.values(), ...ligatureOutputs]);
    const blocked = new Set<number>();
    for (const lookup of lookups) {
      if (isPlainLigatureLookup(lookup)) continue;
      for (const glyph of triggerGlyphs(lookup, reachable)) blocked.add(glyph);
    }
    // a ligature that yields or consumes a blocked glyph could be reshaped later: its first glyph leaves the plain set
    for (const rules of this.ligatureLookups) {
      for (const [first, list] of rules) {
        if (list.some((rule) => blocked.has(rule.glyph) || rule.components.some((c) => blocked.has(c)))) blocked.add(first);
      }
    }
    for (const [codePoint, id] of cmap) if (!blocked.has(id)) this.glyphOf.set(codePoint, id);
    for (const id of [...this.glyphOf.values(), ...ligatureOutputs]) this.advanceOf.set(id, font.getGlyph(id).advanceWidth);
  }

  /** Glyph ids as fontkit's layout gives them, or undefined when the text has a character outside the plain set. */
  glyphs(text: string): number[] | undefined {
    let glyphs: number[] = [];
    for (const char of text) {
      const id = this.glyphOf.get(char.codePointAt(0)!);
      if (id === undefined) return undefined;
      glyphs.push(id);
    }
    for (const rules of this.ligatureLookups) glyphs = applyLigatures(glyphs, rules);
    return glyphs;
  }

  /** pdf-lib's widthOfTextAtSize(text, 1), summed in the same order so the result is the same double. */
  widthAtSizeOne(glyphs: number[]): number {
    let total = 0;
    for (const id of glyphs) total += this.advanceOf.get(id)! * this.scale;
    return total * (1 / 1000);
  }

  /** Every text whose layout reaches a glyph the plain set can produce, ligatures included. */
  samples(): string[] {
    const texts = [...this.glyphOf.keys()].map((c) => String.fromCodePoint(c));
    const charOf = new Map([...this.glyphOf].map(([c, id]) => [id, String.fromCodePoint(c)]));
    for (const rules of this.ligatureLookups) {
      for (const [first, list] of rules) {
        for (const rule of list) {
          const chars = [first, ...rule.components].map((id) => charOf.get(id));
          if (chars.every((c) => c !== undefined)) texts.push(chars.join(""));
        }
      }
    }
    return texts;
  }
}

// fontkit's GSUBProcessor for a type 4 lookup: at each position the first rule whose components follow wins.
function applyLigatures(glyphs: number[], rules: Map<number, Ligature[]>): number[] {
  const out: number[] = [];
  for (let i = 0; i < glyphs.length; i++) {
    const list = rules.get(glyphs[i]);
    const rule = list?.find((r) => r.components.every((c, k) => glyphs[i + 1 + k] === c));
    if (rule) {
      out.push(rule.glyph);
      i += rule.components.length;
    } else {
      out.push(glyphs[i]);
    }
  }
  return out;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- fontkit's parsed OpenType tables are untyped */
function list(value: any): any[] {
  return value?.toArray ? value.toArray() : (value ?? []);
}

function appliedLookups(font: ParsedFont): any[] {
  const gsub = (font as any).GSUB;
  if (!gsub) return [];
  const features = list(gsub.featureList);
  const indexes = new Set<number>();
  for (const record of list(gsub.scriptList)) {
    if (!SCRIPTS.includes(record.tag)) continue;
    const langSys = record.script.defaultLangSys;
    for (const index of list(langSys?.featureIndexes)) {
      const feature = features[index];
      if (APPLIED_FEATURES.has(feature.tag)) for (const lookup of list(feature.feature.lookupListIndexes)) indexes.add(lookup);
    }
  }
  const lookups = list(gsub.lookupList);
  return [...indexes].sort((a, b) => a - b).map((i) => lookups[i]);
}

function isPlainLigatureLookup(lookup: any): boolean {
  const flags = lookup.flags;
  const ignoresSomething = flags.markAttachmentType !== 0 || Object.values(flags.flags ?? {}).some(Boolean);
  return lookup.lookupType === 4 && !ignoresSomething;
}

function ligatureRules(lookup: any): Map<number, Ligature[]> {
  const rules = new Map<number, Ligature[]>();
  for (const table of list(lookup.subTables)) {
    const firsts = coverageGlyphs(table.coverage);
    list(table.ligatureSets).forEach((set, i) => {
      const first = firsts[i];
      if (!rules.has(first)) rules.set(first, list(set).map((l) => ({ glyph: l.glyph, components: list(l.components) })));
    });
  }
  return rules;
}

/**
 * Reachable glyphs at which the lookup might substitute. Every rule starts at a glyph of its coverage,
 * so blocking those glyphs keeps any text that could match on the layout path; a contextual rule that
 * needs a glyph (or a glyph class) no reachable glyph provides never fires and blocks nothing.
 */
function triggerGlyphs(lookup: any, reachable: Set<number>): number[] {
  const triggers: number[] = [];
  for (const raw of list(lookup.subTables)) {
    const type = lookup.lookupType === 7 ? raw.lookupType : lookup.lookupType;
    const table = lookup.lookupType === 7 ? raw.extension : raw;
    const covered = (coverage: any) => coverageGlyphs(coverage).filter((g) => reachable.has(g));
    if ([5, 6].includes(type) && table.version === 3) {
      const sequences = [...list(table.coverages), ...list(table.backtrackCoverage), ...list(table.inputCoverage), ...list(table.lookaheadCoverage)];
      if (sequences.every((c) => covered(c).length > 0)) triggers.push(...covered(table.coverages ? list(table.coverages)[0] : list(table.inputCoverage)[0]));
    } else if ([5, 6].includes(type) && table.version === 2) {
      triggers.push(...covered(table.coverage).filter((g) => classRuleMayFire(type, table, g, reachable)));
    } else {
      triggers.push(...covered(table.coverage));
    }
  }
  return triggers;
}

function classRuleMayFire(type: number, table: any, first: number, reachable: Set<number>): boolean {
  const inputDef = type === 6 ? table.inputClassDef : table.classDef;
  const rules = list(list(type === 6 ? table.chainClassSet : table.classSet)[classOf(inputDef, first)]);
  const classes = (def: any) => new Set([...reachable].map((g) => classOf(def, g)));
  const input = classes(inputDef);
  const backtrack = type === 6 ? classes(table.backtrackClassDef) : input;
  const lookahead = type === 6 ? classes(table.lookaheadClassDef) : input;
  return rules.some(
    (rule) => list(rule.input).every((c) => input.has(c)) && list(rule.backtrack).every((c) => backtrack.has(c)) && list(rule.lookahead).every((c) => lookahead.has(c)),
  );
}

function classOf(def: any, glyph: number): number {
  if (!def) return 0;
  if (def.version === 1) {
    const i = glyph - def.startGlyph;
    return i >= 0 && i < list(def.classValueArray).length ? list(def.classValueArray)[i] : 0;
  }
  const record = list(def.classRangeRecord).find((r) => glyph >= r.start && glyph <= r.end);
  return record ? record.class : 0;
}

function coverageGlyphs(coverage: any): number[] {
  if (!coverage) return [];
  if (coverage.version === 1) return list(coverage.glyphs);
  const glyphs: number[] = [];
  for (const r of list(coverage.rangeRecords)) for (let g = r.start; g <= r.end; g++) glyphs.push(g);
  return glyphs;
}
/* eslint-enable @typescript-eslint/no-explicit-any */

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
