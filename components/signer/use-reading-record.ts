"use client";

import { useCallback, useRef, useState } from "react";
import type { ReadableDocument } from "@/lib/signers/load-signer-page";
import { postJson } from "./call-signer-api";

type ServerProgress = { documents: { documentId: string; pages: number; shown: number }[]; complete: boolean };
export type ReadingRecord = {
  /** Pages shown on this screen so far, and how many there are in all. */
  shown: number;
  total: number;
  /** Pages the server's record holds, and whether that is every page of every file: only then may the signer sign. */
  recordedShown: number;
  recorded: boolean;
  /** The last report did not reach the server (network, expired session). */
  failedStatus: number | null;
  pageShown: (documentId: string, pageIndex: number) => void;
  retry: () => void;
};

/** Pages the signer must see in a file: the stamp page counts once an earlier signer added it. */
const pagesToShow = (d: ReadableDocument) => d.pages + (d.appendStampPage ? 0 : 1);

/**
 * Reports each page the viewer proves was shown to the server (one request at a time; pages shown
 * meanwhile go in the next one) and keeps the server's answer, which is what enables signing.
 */
export function useReadingRecord(api: string, documents: ReadableDocument[]): ReadingRecord {
  const pending = useRef(new Map<string, Set<number>>());
  const sending = useRef(false);
  const [seen, setSeen] = useState(0);
  const [progress, setProgress] = useState<ServerProgress | null>(null);
  const [failedStatus, setFailedStatus] = useState<number | null>(null);
  const total = documents.reduce((sum, d) => sum + pagesToShow(d), 0);

  const flush = useCallback(async () => {
    if (sending.current) return;
    sending.current = true;
    try {
      // one request at a time; pages shown meanwhile go in the next round of this loop
      for (let next = nextBatch(pending.current); next; next = nextBatch(pending.current)) {
        const [documentId, pages] = next;
        pending.current.set(documentId, new Set());
        const answer = await postJson(`${api}/pages`, { documentId, pages: [...pages] });
        if (!answer.ok) {
          // kept for the next report or the retry button
          for (const page of pages) pending.current.get(documentId)!.add(page);
          setFailedStatus(answer.status);
          return;
        }
        setFailedStatus(null);
        setProgress(answer.body as unknown as ServerProgress);
      }
    } finally {
      sending.current = false;
    }
  }, [api]);

  const pageShown = useCallback(
    (documentId: string, pageIndex: number) => {
      const pages = pending.current.get(documentId) ?? new Set<number>();
      pending.current.set(documentId, pages.add(pageIndex));
      setSeen((n) => n + 1);
      void flush();
    },
    [flush],
  );

  const recordedShown = progress?.documents.reduce((sum, d) => sum + d.shown, 0) ?? 0;
  return { shown: Math.min(seen, total), total, recordedShown, recorded: progress?.complete === true, failedStatus, pageShown, retry: () => void flush() };
}

function nextBatch(pending: Map<string, Set<number>>): [string, Set<number>] | undefined {
  return [...pending].find(([, pages]) => pages.size > 0);
}
