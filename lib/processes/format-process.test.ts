import { describe, expect, it } from "vitest";
import { formatProcess } from "./format-process";
import { selfieLinkUrl, selfieLinkValid } from "./selfie-link";
import type { ProcessRecord } from "./load-process-records";
import { ZCallbackPayload, ZListedProcess } from "./schemas";

// Only the columns formatProcess reads.
const record = {
  process: {
    id: `${"a".repeat(32)}:${"b".repeat(16)}`,
    status: "signed",
    createdAt: new Date("2025-01-02T03:04:05.678Z"),
    expireAt: new Date("2025-02-01T03:04:05.678Z"),
    description: "Contrato",
    signOrder: true,
    labels: ["rrhh"],
    readChallenges: ["signerId"],
    urlCallback: "https://example.com/cb",
    createdByName: "api@acme.pe",
  },
  documents: [{ id: "d1", organizationId: "o1", name: "a.pdf", pages: 2 }],
  signers: [
    {
      id: "5b0c7a9e-1c1e-4a7b-9d7e-0f6f1b9d2a11",
      organizationId: "0e6f9a36-93a4-4b3c-9b37-2f4f7a7c8e01",
      nat: "PER",
      docId: "74407841",
      signatureType: "advanced",
      signChallenges: ["facial"],
      stampPositions: { "0": { "3": { page: 3, x: 36, y: 725, size: 1, orientation: "horizontal" } } },
      contactInfo: { type: "email", value: "ana@acme.pe", tz: "-05:00", notified: true },
      signerAlias: "",
      signData: { signAction: "click", date: 1735787045, result: "signed", facial: { result: true, msg: "", id: "f1", expire: 1735787945, selfie: "0e6f9a36-93a4-4b3c-9b37-2f4f7a7c8e01/selfies/x.jpg.enc" } },
      pinfo: null,
    },
  ],
} as unknown as ProcessRecord;

describe("formatProcess", () => {
  it("matches the documented list record and callback payload schemas", () => {
    const documentUrl = () => "https://example.com/api/documents/d1?expires=1&signature=x";
    const selfieUrl = () => "https://example.com/api/selfies/s1?try=f1&expires=1&signature=x";
    expect(ZListedProcess.safeParse(formatProcess(record, { dates: "iso", documentUrl, selfieUrl })).error).toBeUndefined();
    const payload = formatProcess(record, { dates: "epoch", documentUrl, selfieUrl });
    expect(ZCallbackPayload.safeParse(payload).error).toBeUndefined();
    expect(payload.date).toBe(1735787045);
  });

  it("counts the pages of the file the link serves: the upload's, plus the stamp page once someone signed", () => {
    const documentUrl = () => "https://example.com/x";
    const selfieUrl = () => "https://example.com/selfie";
    const unsigned = { ...record, documents: [{ ...record.documents[0], pages: 2, stampPageAppended: false }] } as ProcessRecord;
    const signed = { ...record, documents: [{ ...record.documents[0], pages: 2, stampPageAppended: true }] } as ProcessRecord;
    expect(formatProcess(unsigned, { dates: "epoch", documentUrl, selfieUrl }).documents[0].pages).toBe(2);
    expect(formatProcess(signed, { dates: "epoch", documentUrl, selfieUrl }).documents[0].pages).toBe(3);
  });
});

describe("sign_data.facial.selfie on the wire", () => {
  const settings = { secretKey: new Uint8Array(32).fill(7), publicUrl: "https://firma.example" };
  const now = Date.UTC(2026, 10, 25);
  const payload = formatProcess(record, { dates: "epoch", documentUrl: () => "", selfieUrl: (o) => selfieLinkUrl(o, settings, now) });
  const selfie = payload.signers[0].sign_data.facial!.selfie;

  it("is a signed, expiring link that never shows the storage key or the organization", () => {
    expect(selfie).toMatch(/^https:\/\/firma\.example\/api\/selfies\/5b0c7a9e-1c1e-4a7b-9d7e-0f6f1b9d2a11\?try=f1&expires=\d+&signature=[\w-]+$/);
    expect(selfie).not.toContain("0e6f9a36");
    expect(selfie).not.toContain(".enc");
    const url = new URL(selfie);
    expect(Number(url.searchParams.get("expires"))).toBe(now / 1000 + 120);
  });

  it("verifies only for its organization, signer, try and expiry", () => {
    const url = new URL(selfie);
    const link = { expires: Number(url.searchParams.get("expires")), signature: url.searchParams.get("signature")! };
    const owner = { organizationId: "0e6f9a36-93a4-4b3c-9b37-2f4f7a7c8e01", signerId: "5b0c7a9e-1c1e-4a7b-9d7e-0f6f1b9d2a11", facialId: "f1" };
    expect(selfieLinkValid(owner, link, settings.secretKey)).toBe(true);
    expect(selfieLinkValid({ ...owner, organizationId: "other" }, link, settings.secretKey)).toBe(false);
    expect(selfieLinkValid({ ...owner, facialId: "f2" }, link, settings.secretKey)).toBe(false);
    expect(selfieLinkValid(owner, { ...link, expires: link.expires + 3600 }, settings.secretKey)).toBe(false);
    expect(selfieLinkValid(owner, link, new Uint8Array(32).fill(8))).toBe(false);
  });
});
