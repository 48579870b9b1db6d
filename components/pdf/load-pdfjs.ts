"use client";

let pdfjs: Promise<typeof import("pdfjs-dist")> | null = null;

/** pdf.js, loaded once on demand (it is large) with its worker configured. */
export function loadPdfjs() {
  pdfjs ??= import("pdfjs-dist").then((lib) => {
    lib.GlobalWorkerOptions.workerSrc = new URL("pdfjs-dist/build/pdf.worker.min.mjs", import.meta.url).toString();
    return lib;
  });
  return pdfjs;
}
