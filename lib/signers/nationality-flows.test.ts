import { describe, expect, it } from "vitest";
import { nationalities } from "@/lib/identity-registry/check-national-id";
import { issueFacialTicket, readFacialTicket } from "./facial-challenge";
import { flowOf, nationalityFlows } from "./nationality-flows";

const key = new Uint8Array(32).fill(3);

describe("per-nat flows", () => {
  it("every nat a process can hold has a flow whose challenge set allows a turn either way", () => {
    expect(Object.keys(nationalityFlows).sort()).toEqual([...nationalities].sort());
    for (const nat of nationalities) {
      const flow = flowOf(nat);
      expect(flow.challenges, nat).toEqual(expect.arrayContaining(["turn-left", "turn-right"]));
      expect(flow.facialReferences.length, nat).toBeGreaterThan(0);
    }
    expect(() => flowOf("XXX")).toThrow("no flow for nat XXX");
  });

  it("passports and foreigner cards have no registry reference; DNI and RUN prefer the registry photo", () => {
    expect(flowOf("PER").facialReferences).toEqual(["registry", "id-document"]);
    expect(flowOf("CHL").facialReferences).toEqual(["registry", "id-document"]);
    expect(flowOf("PERPASS").facialReferences).toEqual(["id-document"]);
    expect(flowOf("PERCE").facialReferences).toEqual(["id-document"]);
    expect([flowOf("PERPASS").idType, flowOf("PERCE").idType, flowOf("CHL").country]).toEqual(["PAS", "CE", "CHL"]);
  });

  it("a ticket asks only for movements of the signer's nat, and reads back with that set only", () => {
    const set = flowOf("PERCE").challenges;
    for (let i = 0; i < 100; i++) {
      const { challenges, ticket } = issueFacialTicket({ signerId: "s-1", set }, { secretKey: key });
      expect(challenges.every((c) => set.includes(c))).toBe(true);
      expect(readFacialTicket({ signerId: "s-1", ticket, set }, { secretKey: key })?.challenges).toEqual(challenges);
    }
  });
});
