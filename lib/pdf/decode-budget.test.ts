import { describe, expect, test } from "vitest";
import { PdfError } from "@/lib/pdf/errors";
import { inspectPdf } from "@/lib/pdf/inspect-pdf";
import { objectStreamBomb, xrefStreamChainBomb } from "@/lib/pdf/test-support/make-bombs";

/** The heap a call adds at its peak is bounded by the budget, not by what the file claims. */
function refusal(bytes: Uint8Array): { code?: string; rssGrowthMb: number } {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  let code: string | undefined;
  try {
    inspectPdf(bytes);
  } catch (error) {
    code = error instanceof PdfError ? error.code : String(error);
  }
  peak = Math.max(peak, process.memoryUsage().rss);
  return { code, rssGrowthMb: (peak - before) / 1024 / 1024 };
}

describe("one decode budget per document (xref streams, object streams)", () => {
  test.each([1, 8, 32])("a chain of %i xref streams inflating to 64 MB each is refused as too complex", (sections) => {
    const bomb = xrefStreamChainBomb(sections, 64);
    expect(bomb.length).toBeLessThan(3 * 1024 * 1024);
    const { code, rssGrowthMb } = refusal(bomb);
    expect(code).toBe("PDF_TOO_COMPLEX");
    // budget for a file this small: 32 MB + 2x the file
    expect(rssGrowthMb).toBeLessThan(200);
  });

  test("a chain of small xref streams within the budget still opens", () => {
    expect(() => inspectPdf(xrefStreamChainBomb(4, 1))).not.toThrow();
  });

  test("object streams inflating to 60 MB (under the per-stream cap, over this file's budget) and 200 MB are refused; one of 1 MB opens", () => {
    expect(refusal(objectStreamBomb(60)).code).toBe("PDF_TOO_COMPLEX");
    expect(refusal(objectStreamBomb(200)).code).toBe("PDF_TOO_COMPLEX");
    expect(inspectPdf(objectStreamBomb(1)).pageCount).toBe(1);
  });
});
