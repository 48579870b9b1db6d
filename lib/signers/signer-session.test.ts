import { describe, expect, it } from "vitest";
import { decryptBiometric, encryptBiometric } from "@/lib/crypto/encrypt-biometric";
import { LIVENESS_CHALLENGES } from "@/lib/faces/measure-challenge";
import { FACIAL_TICKET_SECONDS, issueFacialTicket, readFacialTicket } from "./facial-challenge";
import { SIGNER_SESSION_SECONDS, issueSignerSession, readSignerSession, signerSessionCookies } from "./signer-session";

const key = new Uint8Array(32).fill(3);
const token = "a".repeat(43);
const signerId = "11111111-2222-3333-4444-555555555555";

describe("signer session cookie", () => {
  const now = Date.UTC(2026, 0, 1);
  const value = issueSignerSession(key, token, signerId, "session-1", now);

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

describe("facial challenge tickets", () => {
  it("ask for two different movements, one of them a head turn, drawn at random", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const { challenges } = issueFacialTicket({ signerId }, { secretKey: key });
      expect(challenges[0]).not.toBe(challenges[1]);
      expect(challenges.some((c) => c.startsWith("turn-"))).toBe(true);
      seen.add(challenges.join("+"));
    }
    // every ordered pair with at least one turn: 2 × 4 × 2 orders, less the turn+turn pair counted twice
    expect(seen.size).toBe(14);
    expect(new Set([...seen].flatMap((pair) => pair.split("+")))).toEqual(new Set(LIVENESS_CHALLENGES));
  });

  it("are read back for the same signer (late after their time), and refused otherwise", () => {
    const issued = new Date("2026-11-25T10:00:00Z");
    const { challenges, ticket, nonce: issuedNonce } = issueFacialTicket({ signerId, now: issued }, { secretKey: key });
    const at = (seconds: number) => new Date(issued.getTime() + seconds * 1000);
    expect(readFacialTicket({ signerId, ticket, now: at(30) }, { secretKey: key })).toEqual({ nonce: issuedNonce, challenges, late: false });
    expect(readFacialTicket({ signerId, ticket, now: at(FACIAL_TICKET_SECONDS + 1) }, { secretKey: key })).toEqual({ nonce: issuedNonce, challenges, late: true });
    expect(readFacialTicket({ signerId: "another-signer", ticket, now: at(30) }, { secretKey: key })).toBeNull();
    expect(readFacialTicket({ signerId, ticket, now: at(30) }, { secretKey: new Uint8Array(32).fill(9) })).toBeNull();
    // a forged issue time (to stretch the ticket) breaks the signature
    const [nonce, , signature] = ticket.split(".");
    expect(readFacialTicket({ signerId, ticket: `${nonce}.${Math.floor(at(60).getTime() / 1000)}.${signature}`, now: at(70) }, { secretKey: key })).toBeNull();
    expect(readFacialTicket({ signerId, ticket: "garbage", now: at(1) }, { secretKey: key })).toBeNull();
  });
});
