import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { signerPageViews } from "@/db/schema";
import { AppError } from "@/lib/errors";
import type { SignerClient } from "./describe-signer-client";
import { prepareSignerSignature, type DocumentToSign, type SignerSignaturePlan } from "./prepare-signer-signature";
import { SignerFlowError } from "./signer-flow-error";

/** How much of each file the signer has been shown, per the server's record. */
export type ReadingProgress = { documents: { documentId: string; pages: number; shown: number }[]; complete: boolean };

/** Pages of the current revision a signer must see: the stamp page counts once an earlier signer added it. */
export const pagesToShow = (document: Pick<DocumentToSign, "pages" | "appendStampPage">) => document.pages + (document.appendStampPage ? 0 : 1);

/**
 * Records that pages were drawn in the signer's viewport (the reading step reports each page once it
 * was rendered and at least half in view). The first showing of a page is kept with the server's
 * time and the reporting device; later reports of the same page change nothing.
 */
export async function recordPagesShown(
  input: { token: string; signerId: string; sessionId?: string; documentId: string; pages: number[]; client: SignerClient },
  db: Db,
): Promise<ReadingProgress> {
  const plan = await prepareSignerSignature(input, db);
  const document = plan.documents.find((d) => d.documentId === input.documentId);
  if (!document) throw new AppError("VALIDATION", "documentId no es un documento de este firmante", "documentId");
  const count = pagesToShow(document);
  if (input.pages.some((page) => page >= count)) throw new AppError("VALIDATION", `pages: el documento tiene ${count} páginas (0 a ${count - 1})`, "pages");
  const shownAt = new Date();
  await db
    .insert(signerPageViews)
    .values(
      [...new Set(input.pages)].map((pageIndex) => ({
        signerId: plan.signer.id,
        documentId: document.documentId,
        processId: plan.processId,
        organizationId: plan.organizationId,
        pageIndex,
        documentSha256: document.sha256,
        address: input.client.address,
        userAgent: input.client.userAgent,
        shownAt,
      })),
    )
    .onConflictDoNothing();
  return readingProgressOf(plan, db);
}

/** Pages shown per file of the plan, counting only pages that exist in the current revision. */
export async function readingProgressOf(plan: SignerSignaturePlan, db: Db): Promise<ReadingProgress> {
  return progressOf(plan, await pageViewsOf(plan, db));
}

/** When each file's pages were shown, for the signature's evidence: how many showings, the first and the last. */
export type PagesShown = { documentId: string; pages: number; firstShownAt: string; lastShownAt: string };

/**
 * Refuses a signature while the record says a page of one of the files was never shown; otherwise
 * returns, from the same read, the record the signature is made on (its evidence).
 */
export async function assertEveryPageShown(plan: SignerSignaturePlan, db: Db): Promise<PagesShown[]> {
  const views = await pageViewsOf(plan, db);
  if (!progressOf(plan, views).complete) throw new SignerFlowError("pages_not_shown");
  const byDocument = new Map<string, PagesShown>();
  for (const view of views) {
    const at = view.shownAt.toISOString();
    const known = byDocument.get(view.documentId);
    if (!known) byDocument.set(view.documentId, { documentId: view.documentId, pages: 1, firstShownAt: at, lastShownAt: at });
    else byDocument.set(view.documentId, { ...known, pages: known.pages + 1, firstShownAt: at < known.firstShownAt ? at : known.firstShownAt, lastShownAt: at > known.lastShownAt ? at : known.lastShownAt });
  }
  return [...byDocument.values()];
}

type PageView = { documentId: string; pageIndex: number; shownAt: Date };

function pageViewsOf(plan: SignerSignaturePlan, db: Db): Promise<PageView[]> {
  return db
    .select({ documentId: signerPageViews.documentId, pageIndex: signerPageViews.pageIndex, shownAt: signerPageViews.shownAt })
    .from(signerPageViews)
    .where(and(eq(signerPageViews.signerId, plan.signer.id), eq(signerPageViews.processId, plan.processId)));
}

function progressOf(plan: SignerSignaturePlan, views: PageView[]): ReadingProgress {
  const documents = plan.documents.map((d) => {
    const pages = pagesToShow(d);
    const shown = new Set(views.filter((r) => r.documentId === d.documentId && r.pageIndex < pages).map((r) => r.pageIndex)).size;
    return { documentId: d.documentId, pages, shown };
  });
  return { documents, complete: documents.every((d) => d.shown === d.pages) };
}

/** First and last showing of each file's pages, for the signature's evidence (as assertEveryPageShown returns it). */
export async function readingTimesOf(signerId: string, db: Db): Promise<PagesShown[]> {
  const rows = await db
    .select({
      documentId: signerPageViews.documentId,
      pages: sql<number>`count(*)::int`,
      firstShownAt: sql<string>`min(${signerPageViews.shownAt})`,
      lastShownAt: sql<string>`max(${signerPageViews.shownAt})`,
    })
    .from(signerPageViews)
    .where(eq(signerPageViews.signerId, signerId))
    .groupBy(signerPageViews.documentId);
  return rows.map((r) => ({ documentId: r.documentId, pages: r.pages, firstShownAt: new Date(r.firstShownAt).toISOString(), lastShownAt: new Date(r.lastShownAt).toISOString() }));
}
