"use client";

import { layoutStampGrid, STAMP_PAGE, type StampOrientation } from "@/lib/processes/layout-stamp-grid";

export type PreviewSigner = { label: string; size: 1 | 2; orientation: StampOrientation };

/**
 * The page appended to each file for the stamps, drawn from the same grid function the service
 * uses (lib/processes/layout-stamp-grid.ts), over a blank A4 page. PDF y grows upwards; SVG y down.
 */
export function StampGridPreview({ signers, overflowText }: { signers: PreviewSigner[]; overflowText: string }) {
  const grid = layoutStampGrid(signers.map((s, i) => ({ key: String(i), size: s.size, orientation: s.orientation })));
  return (
    <figure className="stamp-preview">
      <svg viewBox={`0 0 ${STAMP_PAGE.width} ${STAMP_PAGE.height}`} role="img" aria-label="A4" data-testid="stamp-grid-preview">
        <rect x={0} y={0} width={STAMP_PAGE.width} height={STAMP_PAGE.height} fill="#fff" stroke="#c3c9d1" />
        {grid &&
          signers.map((s, i) => {
            const box = grid.get(String(i))!;
            const top = STAMP_PAGE.height - box.y - box.height;
            return (
              <g key={i} data-testid="stamp-box">
                <rect x={box.x} y={top} width={box.width} height={box.height} fill="#e8f0fb" stroke="#0b5cad" strokeDasharray="6 4" rx={4} />
                <text x={box.x + 8} y={top + 22} fontSize={16} fill="#0b5cad">{i + 1}. {s.label}</text>
              </g>
            );
          })}
      </svg>
      {!grid && <figcaption className="field-error">{overflowText}</figcaption>}
    </figure>
  );
}
