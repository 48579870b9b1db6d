import crypto from "node:crypto";
import { deriveKey } from "@/lib/crypto/derive-key";

/** Document download links in list and callback payloads live 120 s (decision 17). */
export const DOCUMENT_LINK_SECONDS = 120;

function signatureOf(secretKey: Uint8Array, organizationId: string, documentId: string, expires: number): string {
  return crypto
    .createHmac("sha256", deriveKey(secretKey, "document-links"))
    .update(`${organizationId}.${documentId}.${expires}`)
    .digest("base64url");
}

/** A signed URL for the current revision of a document, bound to its organization and expiry. */
export function documentLinkUrl(
  document: { id: string; organizationId: string },
  settings: { secretKey: Uint8Array; publicUrl: string },
  now = Date.now(),
): string {
  const expires = Math.floor(now / 1000) + DOCUMENT_LINK_SECONDS;
  const signature = signatureOf(settings.secretKey, document.organizationId, document.id, expires);
  return `${settings.publicUrl}/api/documents/${document.id}?expires=${expires}&signature=${signature}`;
}

/** Constant-time check of a link's signature; the expiry is checked by the caller. */
export function documentLinkValid(
  document: { id: string; organizationId: string },
  link: { expires: number; signature: string },
  secretKey: Uint8Array,
): boolean {
  const expected = Buffer.from(signatureOf(secretKey, document.organizationId, document.id, link.expires));
  const given = Buffer.from(link.signature);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}
