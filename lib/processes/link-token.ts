import { sha256Hex } from "@/lib/crypto/derive-key";
import { tokenMac } from "@/lib/crypto/signed-token";

/** What building signing links needs: the master key and the public base URL. */
export type LinkSettings = { secretKey: Uint8Array; publicUrl: string };

/**
 * The opaque token of a signing link: HMAC of the (random) link id. Only its SHA-256 is stored, and
 * the outbox re-creates the link from the id, so the database alone never reveals a working link.
 */
export function linkTokenOf(linkId: string, secretKey: Uint8Array): string {
  return tokenMac(secretKey, "signing-links", linkId);
}

export function hashLinkToken(token: string): string {
  return sha256Hex(token);
}

export function signingLinkUrl(linkId: string, settings: LinkSettings): string {
  return `${settings.publicUrl}/ui/signature_processes/${linkTokenOf(linkId, settings.secretKey)}`;
}
