import { openBox, sealBox, type SealedBoxBinding } from "@/lib/crypto/sealed-box";
import { AppError } from "@/lib/errors";

// the organization id is authenticated (AAD), under a SECRET_KEY-derived key of its own
const bindingOf = (secretKey: Uint8Array, organizationId: string): SealedBoxBinding => ({
  secretKey,
  purpose: "oidc-client-secret",
  aad: Buffer.from(`firmaviva:oidc-client-secret\0${organizationId}`, "utf8"),
});

/** The OIDC client secret at rest (lib/crypto/sealed-box.ts), bound to the organization. */
export function sealClientSecret(secret: string, secretKey: Uint8Array, organizationId: string): Uint8Array {
  return sealBox(Buffer.from(secret, "utf8"), bindingOf(secretKey, organizationId));
}

export function openClientSecret(blob: Uint8Array, secretKey: Uint8Array, organizationId: string): string {
  const opened = openBox(blob, bindingOf(secretKey, organizationId));
  if (opened === "unknown-format") throw new AppError("INTERNAL", "formato de secreto cifrado desconocido");
  if (!opened) throw new AppError("INTERNAL", "no se pudo descifrar el secreto del proveedor de identidad");
  return Buffer.from(opened).toString("utf8");
}
