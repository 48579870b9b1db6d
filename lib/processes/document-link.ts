import { expiresAtSeconds, tokenMac, tokenMacMatches } from "@/lib/crypto/signed-token";

/** Document download links in list and callback payloads live 120 s (decision 17). */
export const DOCUMENT_LINK_SECONDS = 120;

const payloadOf = (organizationId: string, documentId: string, expires: number) => `${organizationId}.${documentId}.${expires}`;

/** A signed URL for the current revision of a document, bound to its organization and expiry. */
export function documentLinkUrl(
  document: { id: string; organizationId: string },
  settings: { secretKey: Uint8Array; publicUrl: string },
  now = Date.now(),
): string {
  const expires = expiresAtSeconds(now, DOCUMENT_LINK_SECONDS);
  const signature = tokenMac(settings.secretKey, "document-links", payloadOf(document.organizationId, document.id, expires));
  return `${settings.publicUrl}/api/documents/${document.id}?expires=${expires}&signature=${signature}`;
}

/** Constant-time check of a link's signature; the expiry is checked by the caller. */
export function documentLinkValid(
  document: { id: string; organizationId: string },
  link: { expires: number; signature: string },
  secretKey: Uint8Array,
): boolean {
  return tokenMacMatches(secretKey, "document-links", payloadOf(document.organizationId, document.id, link.expires), link.signature);
}
