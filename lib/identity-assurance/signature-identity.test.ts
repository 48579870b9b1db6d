import { describe, expect, it } from "vitest";
import { signatureIdentityOf } from "./signature-identity";

describe("signatureIdentityOf", () => {
  const at = new Date("2026-11-26T12:00:00Z");
  it("keeps the level the signer proved", () => {
    const identity = { level: "document-reviewed" as const, method: "id-document" as const, reviewedBy: "ana@org.pe", at: "2026-11-26T11:00:00.000Z" };
    expect(signatureIdentityOf({ signChallenges: ["facial"], identity }, at)).toEqual(identity);
  });
  it("names level none for a signer asked for no identity challenge", () => {
    expect(signatureIdentityOf({ signChallenges: [], identity: null }, at)).toEqual({ level: "none", method: "none", at: at.toISOString() });
    expect(signatureIdentityOf({ signChallenges: ["signAction"], identity: null }, at)?.level).toBe("none");
  });
  it.each([["facial"], ["eid"]])("refuses (null) a %s signer whose level is not proven yet", (challenge) => {
    expect(signatureIdentityOf({ signChallenges: [challenge], identity: null }, at)).toBeNull();
  });
});
