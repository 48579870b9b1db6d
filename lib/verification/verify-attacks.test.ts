import { beforeAll, describe, expect, test } from "vitest";
import { attacks, signedWithShadowForControl } from "./testing/attack-catalogue";
import { makeGenuineOutputs, type GenuineOutputs } from "./testing/make-genuine-outputs";
import { verifyPdfSignatures } from "./verify-pdf-signatures";

let genuine: GenuineOutputs;
const verify = (bytes: Uint8Array) => verifyPdfSignatures(bytes, genuine.anchorsDer);

beforeAll(async () => {
  genuine = await makeGenuineOutputs();
}, 120_000);

describe("genuine outputs of our engine are valid", () => {
  test("a stamp output (one signature + DSS) is valid, trusted, B-LT, with the DSS as a permitted addition", async () => {
    const report = await verify(genuine.stamp);
    expect(report.verdict).toBe("valid");
    expect(report.signatures).toMatchObject([{ kind: "signature", integrity: "intact", trusted: true, status: "valid", level: "B-LT", modifiedAfter: true, changesAfter: [] }]);
    expect(report.signatures[0].allowedChangesAfter.map((c) => c.kind)).toContain("validation-data");
    expect(report.signatures[0].timeStamp).toMatchObject({ valid: true, matchesSignature: true, trusted: true });
  });

  test("a file signed twice keeps both signatures valid; the later signature is a permitted change for the first", async () => {
    const report = await verify(genuine.signedTwice);
    expect(report.signatures.map((s) => s.status)).toEqual(["valid", "valid"]);
    expect(report.signatures[0].allowedChangesAfter.map((c) => c.kind)).toEqual(expect.arrayContaining(["validation-data", "signature"]));
  });

  test("a completed two-signer document: both signatures B-LTA and our document time-stamp valid (its TSA certificate is in the DSS)", async () => {
    const report = await verify(genuine.twoSignersLta);
    expect(report.verdict).toBe("valid");
    expect(report.signatures.map((s) => [s.kind, s.status, s.level])).toEqual([
      ["signature", "valid", "B-LTA"],
      ["signature", "valid", "B-LTA"],
      ["document-timestamp", "valid", undefined],
    ]);
    expect(report.signatures[2].signer).toBe("FirmaViva TSA (Calidad)");
    expect(report.signatures[0].allowedChangesAfter.map((c) => c.kind)).toEqual(expect.arrayContaining(["signature", "validation-data", "document-timestamp"]));
  });

  test("the file the shadow attacks start from (a hidden object, then signed) is valid as signed", async () => {
    expect((await verify(await signedWithShadowForControl(genuine))).verdict).toBe("valid");
  });

  test("without the DSS, a signature time-stamp whose TSA certificate is nowhere cannot be verified", async () => {
    const report = await verify(genuine.bare);
    expect(report.signatures[0]).toMatchObject({ status: "invalid", integrity: "signature-invalid" });
    expect(report.signatures[0].detail).toContain("TSA certificate");
  });
});

describe.each([...new Set(attacks.map((attack) => attack.attackClass))])("%s", (attackClass) => {
  test.each(attacks.filter((attack) => attack.attackClass === attackClass).map((attack) => [attack.name, attack] as const))("%s", async (_name, attack) => {
    const report = await verify(await attack.forge(genuine));
    const target = report.signatures[attack.target ?? 0];
    expect(report.verdict).not.toBe("valid");
    expect(target.status).toBe(attack.expected);
    if (attack.integrity) expect(target.integrity).toBe(attack.integrity);
    for (const kind of attack.changes ?? []) expect(target.changesAfter.map((change) => change.kind)).toContain(kind);
    // what is reported as changed names its revision
    for (const change of target.changesAfter) expect(change.revision).toBeGreaterThan(target.revision ?? -1);
  });
});
