import { createCipheriv, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sealClientSecret, openClientSecret } from "@/lib/identity-assurance/eid/client-secret-box";
import { deriveKey } from "./derive-key";
import { decryptBiometric, encryptBiometric } from "./encrypt-biometric";

const secretKey = randomBytes(32);

// what the two hand-written copies wrote before they shared lib/crypto/sealed-box.ts: stored boxes must still open
function sealedTheOldWay(plaintext: Uint8Array, purpose: string, aad: Uint8Array): Uint8Array {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", deriveKey(secretKey, purpose), iv, { authTagLength: 16 });
  cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return new Uint8Array(Buffer.concat([Uint8Array.of(1), iv, cipher.getAuthTag(), ciphertext]));
}

describe("sealed boxes at rest", () => {
  it("opens biometric blobs and client secrets stored by the earlier code", () => {
    const photo = randomBytes(100);
    const oldPhoto = sealedTheOldWay(photo, "biometrics", Buffer.concat([Uint8Array.of(1), Buffer.from("firmaviva:biometric\0org-1")]));
    expect(Buffer.from(decryptBiometric(oldPhoto, secretKey, "org-1")).equals(photo)).toBe(true);
    const oldSecret = sealedTheOldWay(Buffer.from("s3cret"), "oidc-client-secret", Buffer.from("firmaviva:oidc-client-secret\0org-1"));
    expect(openClientSecret(oldSecret, secretKey, "org-1")).toBe("s3cret");
  });

  it("round-trips, and refuses another owner, another purpose, a changed byte and a foreign format", () => {
    const photo = randomBytes(64);
    const box = encryptBiometric(photo, secretKey, "org-1");
    expect(Buffer.from(decryptBiometric(box, secretKey, "org-1")).equals(photo)).toBe(true);
    expect(() => decryptBiometric(box, secretKey, "org-2")).toThrow("no se pudo descifrar");
    expect(() => openClientSecret(box, secretKey, "org-1")).toThrow("no se pudo descifrar");
    const changed = new Uint8Array(box);
    changed[changed.length - 1] ^= 1;
    expect(() => decryptBiometric(changed, secretKey, "org-1")).toThrow("no se pudo descifrar");
    expect(() => decryptBiometric(Uint8Array.of(2, ...box.subarray(1)), secretKey, "org-1")).toThrow("formato");
    expect(openClientSecret(sealClientSecret("x", secretKey, "org-1"), secretKey, "org-1")).toBe("x");
  });
});
