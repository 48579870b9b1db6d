"use client";

import { useEffect, useRef, useState } from "react";
import type { PDFDocumentProxy } from "pdfjs-dist";
import { loadPdfjs } from "./load-pdfjs";

/** A box on a page in PDF points, origin at the bottom-left (as the stamp API and the grid use). */
export type PageMark = { pageIndex: number; page: { width: number; height: number }; rect: { x: number; y: number; width: number; height: number }; label: string };
/** A page that the document will have after signing (the stamp page), drawn as a blank sheet. */
export type PlaceholderPage = { width: number; height: number; label: string };

type Props = {
  url: string;
  /** Page count known from the server, so placeholders exist before pdf.js has parsed the file. */
  pages: number;
  title: string;
  mark?: PageMark;
  placeholder?: PlaceholderPage;
  labels: { page: string; of: string; loading: string; failed: string };
  /** Called once per page (0-based) when it is drawn and at least half of it (or half the screen) is in view. */
  onPageShown?: (pageIndex: number) => void;
};

const VISIBILITY_STEPS = Array.from({ length: 21 }, (_, i) => i / 20);

/** Half of the page in view, or half of the screen filled by it when the page is taller than the screen. */
function isInView(entry: IntersectionObserverEntry): boolean {
  if (!entry.isIntersecting) return false;
  const seen = entry.intersectionRect.height;
  const screen = entry.rootBounds?.height ?? window.innerHeight;
  return seen >= Math.min(entry.boundingClientRect.height, screen) / 2 - 1;
}

/**
 * pdf.js viewer for phones: every page gets a sized slot at once, but a page is fetched (by byte
 * range) and drawn only when its slot comes near the screen, and released when far away, so the
 * first page of a long file shows quickly and memory stays flat.
 */
export function PdfViewer({ url, pages, title, mark, placeholder, labels, onPageShown }: Props) {
  const rootRef = useRef<HTMLDivElement>(null);
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [pageCount, setPageCount] = useState(pages);
  const [aspect, setAspect] = useState(1.414);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let cancelled = false;
    let loaded: PDFDocumentProxy | null = null;
    loadPdfjs()
      .then((lib) => lib.getDocument({ url, disableAutoFetch: true, rangeChunkSize: 256 * 1024, withCredentials: true }).promise)
      .then(async (document) => {
        loaded = document;
        if (cancelled) return document.destroy();
        const first = await document.getPage(1);
        const viewport = first.getViewport({ scale: 1 });
        setAspect(viewport.height / viewport.width);
        setPageCount(document.numPages);
        setDoc(document);
      })
      .catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
      void loaded?.destroy();
    };
  }, [url]);

  // the latest callback, read by the observers below without re-creating them
  const shownRef = useRef(onPageShown);
  useEffect(() => {
    shownRef.current = onPageShown;
  });

  useEffect(() => {
    const root = rootRef.current;
    if (!doc || !root) return;
    const rendering = new Map<number, { cancel: () => void }>();
    // display is proven per page: drawn on its canvas while in view, whichever of the two comes last
    const inView = new Set<number>();
    const markShownIfDrawnAndInView = (slot: HTMLElement, index: number) => {
      if (slot.dataset.shown === "1" || slot.dataset.rendered !== "1" || !inView.has(index)) return;
      slot.dataset.shown = "1";
      shownRef.current?.(index);
    };
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const slot = entry.target as HTMLElement;
          const index = Number(slot.dataset.pageIndex);
          const canvas = slot.querySelector("canvas")!;
          if (entry.isIntersecting && slot.dataset.rendered !== "1" && !rendering.has(index)) {
            let cancelled = false;
            let task: { cancel: () => void } | null = null;
            rendering.set(index, { cancel: () => ((cancelled = true), task?.cancel()) });
            void doc.getPage(index + 1).then(async (page) => {
              if (cancelled) return;
              const base = page.getViewport({ scale: 1 });
              const ratio = Math.min(window.devicePixelRatio || 1, 2);
              const viewport = page.getViewport({ scale: (slot.clientWidth * ratio) / base.width });
              canvas.width = Math.floor(viewport.width);
              canvas.height = Math.floor(viewport.height);
              slot.style.aspectRatio = `${base.width} / ${base.height}`;
              const render = page.render({ canvas, canvasContext: canvas.getContext("2d")!, viewport });
              task = render;
              try {
                await render.promise;
                slot.dataset.rendered = "1";
                markShownIfDrawnAndInView(slot, index);
                if (index === 0 && !root.dataset.firstPageMs) root.dataset.firstPageMs = String(Math.round(performance.now()));
              } catch {
                // cancelled when scrolled away
              } finally {
                rendering.delete(index);
              }
            });
          }
        }
      },
      { rootMargin: "100% 0px" },
    );
    // pages far away (4 screens) give their canvas memory back; coming near draws them again
    const releaser = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (entry.isIntersecting) continue;
          const slot = entry.target as HTMLElement;
          const index = Number(slot.dataset.pageIndex);
          rendering.get(index)?.cancel();
          rendering.delete(index);
          if (slot.dataset.rendered === "1") {
            const canvas = slot.querySelector("canvas")!;
            canvas.width = 0;
            canvas.height = 0;
            slot.dataset.rendered = "";
          }
        }
      },
      { rootMargin: "400% 0px" },
    );
    const watcher = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const slot = entry.target as HTMLElement;
          const index = Number(slot.dataset.pageIndex);
          if (isInView(entry)) inView.add(index);
          else inView.delete(index);
          markShownIfDrawnAndInView(slot, index);
        }
      },
      { threshold: VISIBILITY_STEPS },
    );
    root.querySelectorAll<HTMLElement>("[data-page-index]").forEach((slot) => {
      observer.observe(slot);
      releaser.observe(slot);
      watcher.observe(slot);
    });
    return () => {
      observer.disconnect();
      releaser.disconnect();
      watcher.disconnect();
      rendering.forEach((r) => r.cancel());
    };
  }, [doc, pageCount]);

  const markBox = (page: { width: number; height: number }) =>
    mark && {
      left: `${(mark.rect.x / page.width) * 100}%`,
      top: `${((page.height - mark.rect.y - mark.rect.height) / page.height) * 100}%`,
      width: `${(mark.rect.width / page.width) * 100}%`,
      height: `${(mark.rect.height / page.height) * 100}%`,
    };

  return (
    <div className="pdf-viewer" ref={rootRef} aria-busy={!doc && !failed} data-loaded={doc ? "1" : undefined}>
      {failed && (
        <p className="alert" role="alert">
          {labels.failed}
        </p>
      )}
      {!doc && !failed && (
        <p className="muted" role="status">
          {labels.loading}
        </p>
      )}
      {Array.from({ length: doc ? pageCount : Math.min(pageCount, 1) }, (_, index) => (
        <div key={index} className="pdf-page" data-page-index={index} style={{ aspectRatio: `1 / ${aspect}` }}>
          <canvas role="img" aria-label={`${title}: ${labels.page} ${index + 1} ${labels.of} ${pageCount + (placeholder ? 1 : 0)}`} />
          {mark && mark.pageIndex === index && doc && (
            <div className="stamp-mark" style={markBox(mark.page)} data-testid="stamp-mark">
              <span>{mark.label}</span>
            </div>
          )}
        </div>
      ))}
      {doc && placeholder && (
        <div className="pdf-page pdf-placeholder" style={{ aspectRatio: `${placeholder.width} / ${placeholder.height}` }} data-testid="stamp-placeholder-page">
          <p className="pdf-placeholder-label">{placeholder.label}</p>
          {mark && (
            <div className="stamp-mark" style={markBox(placeholder)} data-testid="stamp-mark">
              <span>{mark.label}</span>
            </div>
          )}
        </div>
      )}
    </div>
  );
}
