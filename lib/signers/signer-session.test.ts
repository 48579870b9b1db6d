import { describe, expect, it } from "vitest";
import { decryptBiometric, encryptBiometric } from "./encrypt-biometric";
import { facialChallengeFor } from "./facial-challenge";
import { SIGNER_SESSION_SECONDS, issueSignerSession, readSignerSession, signerSessionCookies } from "./signer-session";

const key = new Uint8Array(32).fill(3);
const token = "a".repeat(43);
const signerId = "11111111-2222-3333-4444-555555555555";

describe("signer session cookie", () => {
  const now = Date.UTC(2026, 0, 1);
  const value = issueSignerSession(key, token, signerId, now);

  it.each([
    ["valid", value, token, key, now, signerId],
    ["another link", value, "b".repeat(43), key, now, null],
    ["another key", value, token, new Uint8Array(32).fill(4), now, null],
    ["expired", value, token, key, now + SIGNER_SESSION_SECONDS * 1000, null],
    ["tampered payload", `x${value}`, token, key, now, null],
    ["no signature", value.split(".")[0], token, key, now, null],
    ["missing", undefined, token, key, now, null],
  ] as const)("%s", (_name, cookie, link, secret, at, expected) => {
    expect(readSignerSession(secret, link, cookie, at)?.signerId ?? null).toBe(expected);
  });

  it("is HttpOnly, SameSite=Lax and scoped to the link's page and routes", () => {
    const cookies = signerSessionCookies(value, token, true);
    expect(cookies.map((c) => /Path=([^;]+)/.exec(c)![1])).toEqual([`/ui/signature_processes/${token}`, `/api/signer/${token}`]);
    for (const cookie of cookies) expect(cookie).toMatch(/HttpOnly; SameSite=Lax; Secure$/);
  });
});

describe("biometric encryption", () => {
  it("round-trips only under the same key and owner", () => {
    const photo = new Uint8Array([0xff, 0xd8, 0xff, 1, 2, 3]);
    const sealed = encryptBiometric(photo, key, "org-1");
    expect(Buffer.from(sealed).includes(Buffer.from(photo))).toBe(false);
    expect(decryptBiometric(sealed, key, "org-1")).toEqual(photo);
    expect(() => decryptBiometric(sealed, key, "org-2")).toThrow();
    expect(() => decryptBiometric(sealed, new Uint8Array(32).fill(9), "org-1")).toThrow();
  });
});

describe("facial challenge", () => {
  it("is fixed per signer and attempt, and uses both directions", () => {
    expect(facialChallengeFor(key, signerId, 1)).toBe(facialChallengeFor(key, signerId, 1));
    const seen = new Set(Array.from({ length: 20 }, (_, i) => facialChallengeFor(key, signerId, i + 1)));
    expect([...seen].sort()).toEqual(["turn-left", "turn-right"]);
  });
});
