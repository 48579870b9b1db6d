import type { FacePair } from "./calibrate-threshold";

const WIDTH = 480;
const HEIGHT = 400;
const MARGIN = { left: 64, right: 16, top: 28, bottom: 48 };
/** Log axes from 0.01 % to 100 %: a DET curve's interesting part is the low false-accept end. */
const DECADES = [1e-4, 1e-3, 1e-2, 1e-1, 1];

export interface DetCurveOptions {
  title: string;
  /** Marks the operating point of this threshold. */
  threshold?: number;
}

/**
 * A DET curve (false rejects against false accepts, both on log axes) as a standalone SVG: one
 * point per distinct score, so no smoothing hides how few pairs sit at the low-FAR end. Rates of 0
 * are drawn on the lowest gridline, labelled "0".
 */
export function drawDetCurve(pairs: FacePair[], options: DetCurveOptions): string {
  const impostors = pairs.filter((pair) => !pair.same).map((pair) => pair.similarity);
  const genuine = pairs.filter((pair) => pair.same).map((pair) => pair.similarity);
  if (impostors.length === 0 || genuine.length === 0) throw new RangeError("a DET curve needs same-person and different-person pairs");
  const thresholds = [...new Set([...impostors, ...genuine])].sort((a, b) => a - b);
  const rates = (threshold: number) => ({
    far: impostors.filter((score) => score >= threshold).length / impostors.length,
    frr: genuine.filter((score) => score < threshold).length / genuine.length,
  });
  const points = [...thresholds, 1.001].map(rates).map(({ far, frr }) => `${x(far).toFixed(1)},${y(frr).toFixed(1)}`);
  const grid = DECADES.map((value) => {
    const label = value === DECADES[0] ? "0" : `${value * 100} %`;
    return [
      `<line x1="${x(value)}" y1="${MARGIN.top}" x2="${x(value)}" y2="${HEIGHT - MARGIN.bottom}" stroke="#ddd"/>`,
      `<line x1="${MARGIN.left}" y1="${y(value)}" x2="${WIDTH - MARGIN.right}" y2="${y(value)}" stroke="#ddd"/>`,
      `<text x="${x(value)}" y="${HEIGHT - MARGIN.bottom + 16}" text-anchor="middle">${label}</text>`,
      `<text x="${MARGIN.left - 6}" y="${y(value) + 4}" text-anchor="end">${label}</text>`,
    ].join("");
  });
  const marker = options.threshold === undefined ? "" : operatingPoint(rates(options.threshold), options.threshold);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="11">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#fff"/>`,
    `<text x="${WIDTH / 2}" y="16" text-anchor="middle" font-size="13">${escapeXml(options.title)}</text>`,
    ...grid,
    `<polyline fill="none" stroke="#1f5fbf" stroke-width="2" points="${points.join(" ")}"/>`,
    marker,
    `<text x="${(MARGIN.left + WIDTH - MARGIN.right) / 2}" y="${HEIGHT - 10}" text-anchor="middle">false accepts (${impostors.length} different-person pairs)</text>`,
    `<text transform="translate(14 ${(MARGIN.top + HEIGHT - MARGIN.bottom) / 2}) rotate(-90)" text-anchor="middle">false rejects (${genuine.length} same-person pairs)</text>`,
    "</svg>",
    "",
  ].join("\n");
}

function operatingPoint({ far, frr }: { far: number; frr: number }, threshold: number): string {
  const [px, py] = [x(far), y(frr)];
  return `<circle cx="${px.toFixed(1)}" cy="${py.toFixed(1)}" r="5" fill="none" stroke="#c0392b" stroke-width="2"/><text x="${(px + 8).toFixed(1)}" y="${(py - 8).toFixed(1)}" fill="#c0392b">threshold ${threshold}</text>`;
}

const logScale = (value: number) => (Math.log10(Math.max(DECADES[0], value)) - Math.log10(DECADES[0])) / (Math.log10(1) - Math.log10(DECADES[0]));
const x = (far: number) => MARGIN.left + logScale(far) * (WIDTH - MARGIN.left - MARGIN.right);
const y = (frr: number) => HEIGHT - MARGIN.bottom - logScale(frr) * (HEIGHT - MARGIN.top - MARGIN.bottom);
const escapeXml = (text: string) => text.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
