import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decryptPrivateKey, decryptWithPin, encryptPrivateKey, encryptWithPin } from "@/lib/pki/encrypt-private-key";
import { isPkiError, type PkiErrorCode } from "@/lib/pki/errors";

const pkcs8 = randomBytes(138);
const secretKey = randomBytes(32);

function flip(blob: Uint8Array, index: number): Uint8Array {
  const copy = Uint8Array.from(blob);
  copy[index]! ^= 0x01;
  return copy;
}

function expectCode(action: () => unknown, code: PkiErrorCode) {
  let caught: unknown;
  try {
    action();
  } catch (error) {
    caught = error;
  }
  expect(isPkiError(caught, code), String(caught)).toBe(true);
}

describe("encryptPrivateKey / decryptPrivateKey", () => {
  it("round-trips with the v1 || iv || tag || ciphertext layout", () => {
    const blob = encryptPrivateKey(pkcs8, secretKey, "credential:42");
    expect(blob[0]).toBe(1);
    expect(blob.length).toBe(1 + 12 + 16 + pkcs8.length);
    expect(Buffer.from(decryptPrivateKey(blob, secretKey, "credential:42")).equals(pkcs8)).toBe(true);
  });

  it("uses a fresh IV each time", () => {
    expect(Buffer.from(encryptPrivateKey(pkcs8, secretKey)).equals(Buffer.from(encryptPrivateKey(pkcs8, secretKey)))).toBe(false);
  });

  const blob = encryptPrivateKey(pkcs8, secretKey, "credential:42");
  it.each([
    { name: "wrong key", run: () => decryptPrivateKey(blob, randomBytes(32), "credential:42"), code: "DECRYPTION_FAILED" },
    { name: "wrong aad", run: () => decryptPrivateKey(blob, secretKey, "credential:43"), code: "DECRYPTION_FAILED" },
    { name: "missing aad", run: () => decryptPrivateKey(blob, secretKey), code: "DECRYPTION_FAILED" },
    { name: "tampered ciphertext", run: () => decryptPrivateKey(flip(blob, blob.length - 1), secretKey, "credential:42"), code: "DECRYPTION_FAILED" },
    { name: "tampered tag", run: () => decryptPrivateKey(flip(blob, 20), secretKey, "credential:42"), code: "DECRYPTION_FAILED" },
    { name: "unknown version", run: () => decryptPrivateKey(flip(blob, 0), secretKey, "credential:42"), code: "INVALID_ENCRYPTED_KEY" },
    { name: "truncated blob", run: () => decryptPrivateKey(blob.subarray(0, 20), secretKey), code: "INVALID_ENCRYPTED_KEY" },
    { name: "short secret key", run: () => encryptPrivateKey(pkcs8, randomBytes(16)), code: "INVALID_INPUT" },
  ] as const)("rejects $name", ({ run, code }) => expectCode(run, code));
});

describe("encryptWithPin / decryptWithPin", () => {
  it("round-trips and stores the salt in the blob", async () => {
    const blob = await encryptWithPin(pkcs8, "4711");
    expect(blob[0]).toBe(1);
    expect(blob.length).toBe(1 + 16 + 12 + 16 + pkcs8.length);
    expect(Buffer.from(await decryptWithPin(blob, "4711")).equals(pkcs8)).toBe(true);
  });

  it("throws WRONG_PIN for a wrong PIN", async () => {
    const blob = await encryptWithPin(pkcs8, "4711", "holder:7");
    await expect(decryptWithPin(blob, "4712", "holder:7")).rejects.toSatisfy((error) => isPkiError(error, "WRONG_PIN"));
    await expect(decryptWithPin(blob, "4711", "holder:8")).rejects.toSatisfy((error) => isPkiError(error, "WRONG_PIN"));
    await expect(decryptWithPin(blob.subarray(0, 10), "4711")).rejects.toSatisfy((error) => isPkiError(error, "INVALID_ENCRYPTED_KEY"));
  });

  it("treats composed and decomposed Unicode PINs alike", async () => {
    const blob = await encryptWithPin(pkcs8, "clavé");
    expect(Buffer.from(await decryptWithPin(blob, "clave\u0301")).equals(pkcs8)).toBe(true);
  });
});

describe("holder keys wrapped with the PIN and the server pepper", () => {
  const pepper = randomBytes(32);

  it("round-trips with PIN + pepper (format 2)", async () => {
    const blob = await encryptWithPin(pkcs8, "4821", "holder:1", pepper);
    expect(blob[0]).toBe(2);
    expect(Buffer.from(await decryptWithPin(blob, "4821", "holder:1", pepper)).equals(pkcs8)).toBe(true);
  });

  it("a database copy plus the right PIN is not enough: without the pepper, or with another, it fails", async () => {
    const blob = await encryptWithPin(pkcs8, "4821", "holder:1", pepper);
    await expect(decryptWithPin(blob, "4821", "holder:1")).rejects.toSatisfy((error) => isPkiError(error, "DECRYPTION_FAILED"));
    await expect(decryptWithPin(blob, "4821", "holder:1", randomBytes(32))).rejects.toSatisfy((error) => isPkiError(error, "WRONG_PIN"));
  });

  it("a legacy PIN-only blob still opens, and says it should be re-wrapped", async () => {
    const { decryptWithPinAndPepper } = await import("@/lib/pki/encrypt-private-key");
    const legacy = await encryptWithPin(pkcs8, "4821", "holder:1");
    expect(legacy[0]).toBe(1);
    const opened = await decryptWithPinAndPepper(legacy, "4821", "holder:1", pepper);
    expect(opened.legacy).toBe(true);
    expect(Buffer.from(opened.pkcs8).equals(pkcs8)).toBe(true);
  });
});
