import { describe, expect, it } from "vitest";
import { eidLoginCookie, readEidLoginCookie } from "@/lib/signers/eid-login-cookie";
import { FACIAL_TICKET_SECONDS, readFacialTicket } from "@/lib/signers/facial-challenge";
import { SIGNER_SESSION_SECONDS, readSignerSession } from "@/lib/signers/signer-session";

// Every token below was made by the code before the signed-token module (fixed bytes): tokens already
// issued, such as links in e-mails already sent, must keep verifying.
const key = new Uint8Array(32).fill(7);
const otherKey = new Uint8Array(32).fill(8);
const now = Date.UTC(2026, 10, 1, 12, 0, 0);
const organizationId = "a1a2a3a4-b1b2-4c1c-8d1d-e1e2e3e4e5e6";
const signerId = "11111111-2222-4333-8444-555555555555";
const flip = (text: string) => `${text.slice(0, -1)}${text.endsWith("A") ? "B" : "A"}`;

describe("signer session cookies", () => {
  const link = "a".repeat(43);
  const old =
    "eyJ2IjoxLCJsIjoiNjZkMzRmYmE3MWY4ZjQ1MCIsInMiOiIxMTExMTExMS0yMjIyLTQzMzMtODQ0NC01NTU1NTU1NTU1NTUiLCJlIjoxNzkzNTM2MjAwfQ.Fwrr_f8RGFNECe9pPPUk7z12X0xijksvpHcJDguHn0w";

  it("a cookie issued by the old code still reads", () => {
    expect(readSignerSession(key, link, old, now)).toMatchObject({ signerId, expiresAt: now + SIGNER_SESSION_SECONDS * 1000 });
    // it is a session of its own, never the session of another cookie
    expect(readSignerSession(key, link, old, now)?.sessionId).toMatch(/^c-/);
  });

  it.each([
    ["tampered", flip(old), now],
    ["expired", old, now + SIGNER_SESSION_SECONDS * 1000],
  ])("refuses a %s cookie", (_name, cookie, at) => {
    expect(readSignerSession(key, link, cookie, at)).toBeNull();
  });
});

describe("facial tickets", () => {
  const ticket = "QJxoC0UsdwhFlKft.1793534400.-wZpoKYH4xL29jTF-FcqQRnbBvDZyegTzzn12h84OJg";

  it("a ticket issued by the old code still reads, with the same challenges", () => {
    expect(readFacialTicket({ signerId, ticket, now: new Date(now) }, { secretKey: key })).toEqual({
      nonce: "QJxoC0UsdwhFlKft",
      challenges: ["turn-left", "turn-right"],
      late: false,
    });
    expect(readFacialTicket({ signerId, ticket, now: new Date(now + (FACIAL_TICKET_SECONDS + 1) * 1000) }, { secretKey: key })?.late).toBe(true);
  });

  it.each([
    ["tampered", flip(ticket), signerId],
    ["another signer's", ticket, organizationId],
  ])("refuses a %s ticket", (_name, presented, owner) => {
    expect(readFacialTicket({ signerId: owner, ticket: presented, now: new Date(now) }, { secretKey: key })).toBeNull();
  });
});

describe("eID login cookies", () => {
  const loginId = "9c1f4f2e-8d7b-4a6c-b5e4-3d2c1b0a9f8e";
  const old = `${loginId}.VJGyIOcBNM7hePgWfJFh8WVQEGe5V8597sBNq_QtFdU`;

  it("a cookie issued by the old code still reads, and is the cookie issued now", () => {
    expect(readEidLoginCookie(key, old)).toBe(loginId);
    expect(eidLoginCookie(key, loginId, true)).toMatch(new RegExp(`^fv_eid=${old.replace(/[.-]/g, "\\$&")};`));
  });

  it("refuses a tampered cookie or one under another key", () => {
    expect(readEidLoginCookie(key, flip(old))).toBeNull();
    expect(readEidLoginCookie(otherKey, old)).toBeNull();
  });
});
