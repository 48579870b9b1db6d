import { describe, expect, it } from "vitest";
import { documentLinkUrl, documentLinkValid } from "@/lib/processes/document-link";
import { linkTokenOf } from "@/lib/processes/link-token";
import { selfieLinkUrl, selfieLinkValid } from "@/lib/processes/selfie-link";

// Every token below was made by the code before the signed-token module (fixed bytes): tokens already
// issued, such as links in e-mails already sent, must keep verifying.
const key = new Uint8Array(32).fill(7);
const otherKey = new Uint8Array(32).fill(8);
const now = Date.UTC(2026, 10, 1, 12, 0, 0);
const expires = 1793534520; // now + 120 s
const organizationId = "a1a2a3a4-b1b2-4c1c-8d1d-e1e2e3e4e5e6";
const signerId = "11111111-2222-4333-8444-555555555555";
const flip = (text: string) => `${text.slice(0, -1)}${text.endsWith("A") ? "B" : "A"}`;
const settings = { secretKey: key, publicUrl: "https://firmaviva.example" };

describe("document links", () => {
  const document = { id: "0f0e0d0c-0b0a-4909-8807-060504030201", organizationId };
  const old = { expires, signature: "r4Zw_WbrdTOs9pen958cfNK-Miq5-sidhKINQ4_yzHc" };

  it("a link issued by the old code still verifies, and is the link issued now", () => {
    expect(documentLinkValid(document, old, key)).toBe(true);
    expect(documentLinkUrl(document, settings, now)).toBe(`${settings.publicUrl}/api/documents/${document.id}?expires=${expires}&signature=${old.signature}`);
  });

  it.each([
    ["tampered signature", document, { ...old, signature: flip(old.signature) }, key],
    ["longer expiry", document, { ...old, expires: expires + 1 }, key],
    ["another document", { ...document, id: "0f0e0d0c-0b0a-4909-8807-060504030202" }, old, key],
    ["another key", document, old, otherKey],
  ])("refuses a %s", (_name, target, link, secret) => {
    expect(documentLinkValid(target, link, secret)).toBe(false);
  });
});

describe("selfie links", () => {
  const owner = { organizationId, signerId, facialId: "66666666-7777-4888-9999-000000000000" };
  const old = { expires, signature: "sfjJDfejSi-giFr72MK-lw0IsZwxTuF8iRq8YM_rUQM" };

  it("a link issued by the old code still verifies, and is the link issued now", () => {
    expect(selfieLinkValid(owner, old, key)).toBe(true);
    expect(selfieLinkUrl(owner, settings, now)).toContain(`expires=${expires}&signature=${old.signature}`);
  });

  it.each([
    ["tampered signature", owner, { ...old, signature: flip(old.signature) }],
    ["longer expiry", owner, { ...old, expires: expires + 1 }],
    ["another organization", { ...owner, organizationId: signerId }, old],
  ])("refuses a %s", (_name, target, link) => {
    expect(selfieLinkValid(target, link, key)).toBe(false);
  });
});

describe("signing links", () => {
  it("the token of a link id is the one the old code put in e-mails", () => {
    expect(linkTokenOf("5b8e2f6a-3c1d-4e7f-9a0b-1c2d3e4f5a6b", key)).toBe("K5ZxUnme_QvRIvT-f68dZLMTsH1vaJ_KANLK3_fLzz4");
    expect(linkTokenOf("5b8e2f6a-3c1d-4e7f-9a0b-1c2d3e4f5a6c", key)).not.toBe("K5ZxUnme_QvRIvT-f68dZLMTsH1vaJ_KANLK3_fLzz4");
  });
});
