import { PDFName } from "pdf-lib";
import { collectPages } from "@/lib/pdf/collect-pages";
import type { LazyPdf } from "@/lib/pdf/open-lazy-pdf";
import type { Change } from "./classify-revision-changes";
import { comparePageRasters } from "./compare-page-rasters";
import { readChangedAnnotations, type PageAnnotations } from "./read-changed-annotations";
import type { Revision } from "./read-revisions";
import { RENDER_LIMITS, renderPages, type RenderedDocument, type RenderLimits } from "./render-pages";
import type { SignatureCheck } from "./verify-one-signature";

// Pages rendered per document version; past it only the pages whose annotations changed are drawn.
export const MAX_RENDERED_PAGES = 100;

/**
 * The render check (issue 41, as EU DSS's visual comparison): for each signature with later
 * revisions that draw (form fills, annotations, new signature widgets) or that re-write what the
 * pages draw with, the signed revision and the final document are rendered with pdftoppm and compared
 * page by page. An annotation may draw only where the signed page was blank; any other visible
 * difference is a change; changes the object rules forbade only because they might show
 * (`renderable`) are allowed when nothing shows.
 */
export async function judgeRenderedPages(bytes: Uint8Array, pdf: LazyPdf, revisions: Revision[], checks: SignatureCheck[], limits: RenderLimits = RENDER_LIMITS): Promise<void> {
  const final = revisions.at(-1)!;
  const deadline = Date.now() + limits.timeoutMs;
  const renders = new Map<string, Promise<RenderedDocument>>();
  const render = (end: number, pages: number[]) => {
    const key = `${end}:${pages.join(",")}`;
    if (!renders.has(key)) {
      const promise = renderPages(end === bytes.length ? bytes : bytes.subarray(0, end), pages, { ...limits, timeoutMs: Math.max(1, deadline - Date.now()) });
      promise.catch(() => undefined);
      renders.set(key, promise);
    }
    return renders.get(key)!;
  };
  try {
    for (const check of checks) {
      if (!check.placement.ok || check.placement.revision.index === final.index) continue;
      const { report } = check;
      const renderable = report.changesAfter.filter((change) => change.renderable);
      // the verdict is "changed" whatever the pages show: nothing to render
      if (report.changesAfter.length > renderable.length) continue;
      const signed = check.placement.revision;
      let pages: PageAnnotations[];
      let signedPageCount: number;
      try {
        pages = readChangedAnnotations(signed.state(), pdf);
        const state = signed.state();
        signedPageCount = collectPages(state, state.lookupDict(state.trailer.get(PDFName.of("Root")))!).pages.length;
      } catch (error) {
        report.changesAfter.push(visible(final, `the pages cannot be read to compare them: ${(error as Error).message}`));
        continue;
      }
      const drawing = pages.some((page) => page.changed.length > 0);
      if (!drawing && renderable.length === 0) continue;
      const outcome = await comparePages(signed, pages, signedPageCount);
      for (const detail of outcome.problems) report.changesAfter.push(visible(final, detail));
      if (outcome.problems.length === 0 && outcome.allPagesCompared) {
        report.changesAfter = report.changesAfter.filter((change) => !change.renderable);
        for (const change of renderable) report.allowedChangesAfter.push({ ...change, allowed: true, renderable: undefined, detail: `${change.detail}; every page renders as signed` });
      }
    }
  } finally {
    for (const promise of renders.values()) await promise.then((doc) => doc.dispose(), () => undefined);
  }

  async function comparePages(signed: Revision, pages: PageAnnotations[], signedPageCount: number): Promise<{ problems: string[]; allPagesCompared: boolean }> {
    const problems: string[] = [];
    if (pages.length !== signedPageCount) problems.push(`the document has ${pages.length} pages; it had ${signedPageCount} when signed`);
    const common = Math.min(pages.length, signedPageCount);
    const all = Array.from({ length: common }, (_, i) => i + 1);
    const withAnnotations = all.filter((page) => pages[page - 1].changed.length > 0);
    const allPagesCompared = common <= MAX_RENDERED_PAGES;
    const chosen = allPagesCompared ? all : withAnnotations;
    if (chosen.length > MAX_RENDERED_PAGES) return { problems: [...problems, `${chosen.length} pages changed annotations: more than the ${MAX_RENDERED_PAGES} pages the render check compares`], allPagesCompared: false };
    if (chosen.length === 0) return { problems, allPagesCompared };
    let before: RenderedDocument;
    let after: RenderedDocument;
    try {
      [before, after] = await Promise.all([render(signed.end, chosen), render(bytes.length, chosen)]);
    } catch (error) {
      return { problems: [...problems, `what the pages show could not be compared (${(error as Error).message})`], allPagesCompared: false };
    }
    for (const page of chosen) {
      const { geometry, changed } = pages[page - 1];
      const result = comparePageRasters(await before.page(page), await after.page(page), geometry, changed);
      if (result.sizeChanged) problems.push(`page ${page}: its size or orientation changed`);
      for (const { name, pixels } of result.covering) problems.push(`page ${page}: ${name} draws over content that was visible when signed (${pixels} pixels)`);
      if (result.outside > 0) problems.push(`page ${page}: what the page shows changed outside any permitted field or annotation (${result.outside} pixels)`);
    }
    return { problems, allPagesCompared };
  }
}

function visible(final: Revision, detail: string): Change {
  return { revision: final.index, kind: "visible-change", allowed: false, detail };
}
