"use client";

import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from "react";
import type { PDFDocumentProxy } from "pdfjs-dist";
import { loadPdfjs } from "@/components/pdf/load-pdfjs";

/** Stamp position in PDF points from the bottom-left corner of the page as displayed (CropBox, after /Rotate). */
export type StampPosition = { x: number; y: number };
export type PageSize = { width: number; height: number };

type Props = {
  file: File;
  /** 1-based page number. */
  pageNumber: number;
  box: PageSize;
  position: StampPosition;
  onMove: (position: StampPosition) => void;
  onDocument: (info: { pageCount: number }) => void;
  onPageSize: (size: PageSize) => void;
  children: ReactNode;
  labels: { loading: string; failed: string; box: string; page: string };
};

/** Integer points inside the page, as the API requires (position_x/position_y are integers >= 0). */
function clampToPage(position: StampPosition, page: PageSize, box: PageSize): StampPosition {
  const clamp = (v: number, max: number) => Math.min(Math.max(Math.round(v), 0), Math.max(Math.floor(max), 0));
  return { x: clamp(position.x, page.width - box.width), y: clamp(position.y, page.height - box.height) };
}

/**
 * One page of a local PDF drawn by pdf.js with a stamp box on top. Dragging (mouse, pen or touch),
 * tapping the page or the arrow keys move the box; the position is reported in points.
 */
export function StampPlacer({ file, pageNumber, box, position, onMove, onDocument, onPageSize, children, labels }: Props) {
  const sheetRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const grab = useRef<{ dx: number; dy: number; pointerId: number } | null>(null);
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [page, setPage] = useState<PageSize | null>(null);
  const [rendered, setRendered] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let cancelled = false;
    let loaded: PDFDocumentProxy | null = null;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- forget the previous file's document while the new one loads (an external load, not derived state)
    setDoc(null);
    setFailed(false);
    void Promise.all([loadPdfjs(), file.arrayBuffer()])
      .then(([lib, bytes]) => lib.getDocument({ data: new Uint8Array(bytes) }).promise)
      .then((document) => {
        loaded = document;
        if (cancelled) return void document.destroy();
        setDoc(document);
        onDocument({ pageCount: document.numPages });
      })
      .catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
      void loaded?.destroy();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- onDocument is the parent's callback; only a new file reloads
  }, [file]);

  useEffect(() => {
    const canvas = canvasRef.current;
    const sheet = sheetRef.current;
    if (!doc || !canvas || !sheet || pageNumber < 1 || pageNumber > doc.numPages) return;
    let task: { cancel: () => void; promise: Promise<void> } | null = null;
    let cancelled = false;
    setRendered(false);
    void doc.getPage(pageNumber).then(async (pdfPage) => {
      if (cancelled) return;
      // the viewport applies /Rotate and starts from the CropBox: its size is the page as displayed
      const base = pdfPage.getViewport({ scale: 1 });
      const size = { width: base.width, height: base.height };
      setPage(size);
      onPageSize(size);
      const ratio = Math.min(window.devicePixelRatio || 1, 2);
      const viewport = pdfPage.getViewport({ scale: (Math.max(sheet.clientWidth, 320) * ratio) / base.width });
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      task = pdfPage.render({ canvas, canvasContext: canvas.getContext("2d")!, viewport });
      try {
        await task.promise;
        if (!cancelled) setRendered(true);
      } catch {
        // cancelled by a newer page choice
      }
    });
    return () => {
      cancelled = true;
      task?.cancel();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- onPageSize is the parent's callback; only a new document or page redraws
  }, [doc, pageNumber]);

  /** CSS pixels of the displayed sheet -> points, with the box's top-left corner at (left, top). */
  const toPoints = (left: number, top: number): StampPosition | null => {
    const sheet = sheetRef.current;
    if (!sheet || !page) return null;
    const rect = sheet.getBoundingClientRect();
    const scale = rect.width / page.width;
    return { x: left / scale, y: (rect.height - top - box.height * scale) / scale };
  };

  const moveTo = (event: PointerEvent<HTMLDivElement>) => {
    const sheet = sheetRef.current;
    if (!grab.current || !sheet || !page) return;
    const rect = sheet.getBoundingClientRect();
    const next = toPoints(event.clientX - rect.left - grab.current.dx, event.clientY - rect.top - grab.current.dy);
    if (next) onMove(clampToPage(next, page, box));
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    const sheet = sheetRef.current;
    if (!sheet || !page || event.button !== 0) return;
    event.preventDefault();
    const rect = sheet.getBoundingClientRect();
    const scale = rect.width / page.width;
    const boxLeft = position.x * scale;
    const boxTop = rect.height - (position.y + box.height) * scale;
    const px = event.clientX - rect.left;
    const py = event.clientY - rect.top;
    const onBox = px >= boxLeft && px <= boxLeft + box.width * scale && py >= boxTop && py <= boxTop + box.height * scale;
    // grabbing the box keeps the grip; pressing elsewhere on the page brings the box's centre there
    grab.current = onBox ? { dx: px - boxLeft, dy: py - boxTop, pointerId: event.pointerId } : { dx: (box.width * scale) / 2, dy: (box.height * scale) / 2, pointerId: event.pointerId };
    sheet.setPointerCapture(event.pointerId);
    moveTo(event);
  };

  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    if (!grab.current) return;
    moveTo(event);
    sheetRef.current?.releasePointerCapture(grab.current.pointerId);
    grab.current = null;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!page) return;
    const step = event.shiftKey ? 10 : 1;
    const delta = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] }[event.key];
    if (!delta) return;
    event.preventDefault();
    onMove(clampToPage({ x: position.x + delta[0], y: position.y + delta[1] }, page, box));
  };

  return (
    <div className="stamp-placer">
      {failed && <p className="alert" role="alert">{labels.failed}</p>}
      {!failed && !rendered && <p className="muted" role="status">{labels.loading}</p>}
      <div
        ref={sheetRef}
        className="stamp-sheet"
        data-testid="stamp-sheet"
        data-rendered={rendered ? "1" : undefined}
        data-page-width={page?.width}
        data-page-height={page?.height}
        style={{ aspectRatio: page ? `${page.width} / ${page.height}` : "1 / 1.414" }}
        onPointerDown={onPointerDown}
        onPointerMove={moveTo}
        onPointerUp={onPointerUp}
        onPointerCancel={() => (grab.current = null)}
      >
        <canvas ref={canvasRef} role="img" aria-label={`${labels.page} ${pageNumber}`} />
        {page && (
          <div
            className="stamp-box"
            data-testid="stamp-box"
            tabIndex={0}
            role="group"
            aria-label={labels.box}
            onKeyDown={onKeyDown}
            style={{
              left: `${(position.x / page.width) * 100}%`,
              top: `${((page.height - position.y - box.height) / page.height) * 100}%`,
              width: `${(box.width / page.width) * 100}%`,
              height: `${(box.height / page.height) * 100}%`,
              containerType: "inline-size",
            }}
          >
            {children}
          </div>
        )}
      </div>
    </div>
  );
}
