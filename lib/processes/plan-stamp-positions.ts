import type { StampPositions, StampSlot } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { layoutStampGrid, type GridItem, type StampOrientation } from "./layout-stamp-grid";
import type { StampPositionsInput } from "./schemas";

export type SignerStampRequest = {
  /** Field path used in error details, e.g. `signers.1`. */
  key: string;
  requested?: StampPositionsInput;
  current?: StampPositions;
  /** A signer who already signed keeps their place on every file. */
  signed?: boolean;
};
type Style = { size: number; orientation: StampOrientation };

/**
 * Overwrites page and x/y of every signer's stampPositions with the service's grid on the page
 * appended to each file (decision 13). The files a signer signs are the keys of stampPositions
 * (all files when absent or empty); size and orientation come from the first entry of each file.
 */
export function planStampPositions(signers: SignerStampRequest[], documents: { index: number; pages: number }[]): Map<string, StampPositions> {
  const styles = signers.map((signer) => stylesOf(signer, documents.length));
  const result = new Map<string, StampPositions>(signers.map((s) => [s.key, {}]));
  for (const document of documents) {
    const page = document.pages + 1;
    const items: GridItem[] = [];
    signers.forEach((signer, i) => {
      const style = styles[i].get(document.index);
      if (!style) return;
      const slot = signer.signed ? firstSlot(signer.current?.[String(document.index)]) : undefined;
      items.push({ key: signer.key, ...style, fixed: slot ? { x: slot.x, y: slot.y } : undefined });
    });
    const grid = layoutStampGrid(items);
    if (!grid) {
      throw new AppError("VALIDATION", `los sellos no caben en la página añadida al archivo ${document.index}`, "stampPositions");
    }
    for (const item of items) {
      const place = grid.get(item.key)!;
      const slot: StampSlot = { page, x: place.x, y: place.y, size: item.size, orientation: item.orientation };
      result.get(item.key)![String(document.index)] = { [String(page)]: slot };
    }
  }
  return result;
}

function stylesOf(signer: SignerStampRequest, fileCount: number): Map<number, Style> {
  const styles = new Map<number, Style>();
  const requested = signer.requested && Object.keys(signer.requested).length > 0 ? signer.requested : undefined;
  if (requested) {
    for (const [file, pages] of Object.entries(requested)) {
      const index = Number(file);
      if (index >= fileCount) throw new AppError("VALIDATION", `no existe el archivo ${file}`, `${signer.key}.stampPositions.${file}`);
      const first = Object.values(pages)[0];
      styles.set(index, { size: first?.size ?? 1, orientation: first?.orientation ?? "horizontal" });
    }
    return styles;
  }
  const current = signer.current && Object.keys(signer.current).length > 0 ? signer.current : undefined;
  for (let index = 0; index < fileCount; index++) {
    if (current && !current[String(index)]) continue;
    const slot = firstSlot(current?.[String(index)]);
    styles.set(index, { size: slot?.size ?? 1, orientation: slot?.orientation ?? "horizontal" });
  }
  return styles;
}

function firstSlot(pages: Record<string, StampSlot> | undefined): StampSlot | undefined {
  return pages ? Object.values(pages)[0] : undefined;
}

/** File indexes a signer stamps, from their stored stampPositions. */
export function filesOf(positions: StampPositions): number[] {
  return Object.keys(positions).map(Number).sort((a, b) => a - b);
}
