import { describe, expect, it } from "vitest";
import { metrics } from "@/lib/metrics/metrics";
import { auditRecordedLevel, isAuditSampled } from "./audit-recorded-level";

const pdf = new Uint8Array([1, 2, 3]);

async function disagreements(): Promise<number> {
  const values = (await metrics().levelDisagreements.get()).values;
  return values.reduce((sum, value) => sum + value.value, 0);
}

describe("auditRecordedLevel: the full check behind a derived level", () => {
  it("reports and counts a recorded level the full verification does not find", async () => {
    const before = await disagreements();
    const outcome = await auditRecordedLevel({ kind: "stamp", transaction: "FORGED0001", pdf, recorded: "B-LTA" }, { measure: async () => "B-LT" });
    expect(outcome).toBe("disagrees");
    expect(await disagreements()).toBe(before + 1);
    expect(await metrics().registry.metrics()).toMatch(/firmaviva_level_disagreements_total\{kind="stamp",recorded="B-LTA",measured="B-LT"\} [1-9]/);
  });

  it("counts no disagreement when both find the same level, or none", async () => {
    const before = await disagreements();
    expect(await auditRecordedLevel({ kind: "stamp", transaction: "GENUINE001", pdf, recorded: "B-LT" }, { measure: async () => "B-LT" })).toBe("agrees");
    expect(await auditRecordedLevel({ kind: "stamp", transaction: "GENUINE002", pdf, recorded: null }, { measure: async () => null })).toBe("agrees");
    expect(await disagreements()).toBe(before);
  });

  it("a verifier that could not run is unmeasured, not a disagreement", async () => {
    const before = await disagreements();
    expect(await auditRecordedLevel({ kind: "stamp", transaction: "BUSY000001", pdf, recorded: "B-LT" }, { measure: async () => "unmeasured" })).toBe("unmeasured");
    expect(await auditRecordedLevel({ kind: "stamp", transaction: "BUSY000002", pdf, recorded: "B-LT" }, { measure: () => Promise.reject(new Error("pool full")) })).toBe("unmeasured");
    expect(await disagreements()).toBe(before);
  });

  it.each([
    [0, 0, false],
    [1, 0.999, true],
    [0.02, 0.019, true],
    [0.02, 0.02, false],
  ])("rate %s with draw %s samples: %s", (rate, draw, sampled) => {
    expect(isAuditSampled(rate, () => draw)).toBe(sampled);
  });
});
