import { describe, expect, it } from "vitest";
import { formatProcess } from "./format-process";
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
      nat: "PER",
      docId: "74407841",
      signatureType: "advanced",
      signChallenges: ["facial"],
      stampPositions: { "0": { "3": { page: 3, x: 36, y: 725, size: 1, orientation: "horizontal" } } },
      contactInfo: { type: "email", value: "ana@acme.pe", tz: "-05:00", notified: true },
      signerAlias: "",
      signData: { signAction: "click", date: 1735787045, result: "signed", facial: { result: true, msg: "", id: "f1", expire: 1735787945, selfie: "" } },
      pinfo: null,
    },
  ],
} as unknown as ProcessRecord;

describe("formatProcess", () => {
  it("matches the documented list record and callback payload schemas", () => {
    const documentUrl = () => "https://example.com/api/documents/d1?expires=1&signature=x";
    expect(ZListedProcess.safeParse(formatProcess(record, { dates: "iso", documentUrl })).error).toBeUndefined();
    const payload = formatProcess(record, { dates: "epoch", documentUrl });
    expect(ZCallbackPayload.safeParse(payload).error).toBeUndefined();
    expect(payload.date).toBe(1735787045);
  });
});
