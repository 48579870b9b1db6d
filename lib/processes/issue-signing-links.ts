import crypto from "node:crypto";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { processLinks } from "@/db/schema";
import { hashLinkToken, linkTokenOf, signingLinkUrl, type LinkSettings } from "./link-token";
import type { LinksMessage } from "./schemas";

export type LinkMode = "shared" | "per-signer";
export type IssuedLink = { linkId: string; signerId: string | null; link: string; natDni: string | null };

/**
 * Replaces the signing links of a process: earlier links stop working, and new ones carry the new
 * expiry. Shared mode issues one link; per-signer mode one per signer still to sign.
 */
export async function issueSigningLinks(
  input: { processId: string; organizationId: string; linkMode: LinkMode; signers: { id: string; nat: string; docId: string }[]; expiresAt: Date },
  { db, settings }: { db: Db; settings: LinkSettings },
): Promise<IssuedLink[]> {
  await db
    .update(processLinks)
    .set({ revokedAt: new Date() })
    .where(and(eq(processLinks.processId, input.processId), isNull(processLinks.revokedAt)));
  const targets = input.linkMode === "shared" ? [null] : input.signers;
  const rows = targets.map((signer) => {
    const id = crypto.randomUUID();
    return {
      id,
      processId: input.processId,
      organizationId: input.organizationId,
      signerId: signer?.id ?? null,
      tokenHash: hashLinkToken(linkTokenOf(id, settings.secretKey)),
      expiresAt: input.expiresAt,
      natDni: signer ? `${signer.nat}:${signer.docId}` : null,
    };
  });
  if (rows.length > 0) await db.insert(processLinks).values(rows.map(({ natDni: _natDni, ...row }) => row));
  return rows.map((row) => ({ linkId: row.id, signerId: row.signerId, link: signingLinkUrl(row.id, settings), natDni: row.natDni }));
}

/** The answer of create and notify: the link as text (shared) or `{link, nat_dni}` per signer. */
export function linksMessage(links: IssuedLink[], linkMode: LinkMode): LinksMessage {
  if (linkMode === "shared") return links[0]?.link ?? "";
  return links.map((l) => ({ link: l.link, nat_dni: l.natDni ?? "" }));
}

/** Links of a process that still work (for notifying a signer whose contact changed). */
export async function findActiveLinks(processId: string, db: Db): Promise<IssuedLink[]> {
  const rows = await db
    .select()
    .from(processLinks)
    .where(and(eq(processLinks.processId, processId), isNull(processLinks.revokedAt), gt(processLinks.expiresAt, new Date())));
  return rows.map((r) => ({ linkId: r.id, signerId: r.signerId, link: "", natDni: null }));
}
