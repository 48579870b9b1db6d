import { describe, expect, it } from "vitest";
import { identityLevelOf, identityLevelOfPolicyOid, identityLevelPolicyOids, identityLevels } from "./identity-level";

describe("identityLevelOf", () => {
  it("gives eid only when the provider's document number matched", () => {
    expect(identityLevelOf({ method: "oidc", documentNumberMatched: true })).toBe("eid");
    expect(identityLevelOf({ method: "oidc", documentNumberMatched: false })).toBeNull();
  });
  it("gives registry only after a passed facial check against a registry portrait", () => {
    expect(identityLevelOf({ method: "registry-photo", facialPassed: true })).toBe("registry");
    expect(identityLevelOf({ method: "identity-registry", facialPassed: true })).toBe("registry");
    expect(identityLevelOf({ method: "registry-photo", facialPassed: false })).toBeNull();
  });
  it("never lets a self-supplied ID photo sign on its own while review is required", () => {
    expect(identityLevelOf({ method: "id-document", facialPassed: true, reviewApproved: false, reviewRequired: true })).toBeNull();
    expect(identityLevelOf({ method: "id-document", facialPassed: true, reviewApproved: true, reviewRequired: true })).toBe("document-reviewed");
    expect(identityLevelOf({ method: "id-document", facialPassed: true, reviewApproved: false, reviewRequired: false })).toBe("document");
    expect(identityLevelOf({ method: "id-document", facialPassed: false, reviewApproved: true, reviewRequired: true })).toBeNull();
  });
  it("gives none without any challenge", () => {
    expect(identityLevelOf({ method: "none" })).toBe("none");
  });
});

describe("identity level policy OIDs", () => {
  it("are distinct, under our 2.25 arc, and read back to their level", () => {
    const oids = identityLevels.map((level) => identityLevelPolicyOids[level]);
    expect(new Set(oids).size).toBe(identityLevels.length);
    for (const level of identityLevels) {
      expect(identityLevelPolicyOids[level]).toMatch(/^2\.25\.\d+\.1\.\d$/);
      expect(identityLevelOfPolicyOid(identityLevelPolicyOids[level])).toBe(level);
    }
    expect(identityLevelOfPolicyOid("2.5.29.32.0")).toBeNull();
  });
});
