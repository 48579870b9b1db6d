import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, test } from "vitest";
import { CpuPool } from "@/lib/runtime/cpu-pool";
import type { EvidenceSummaryInput } from "@/lib/evidence/sign-evidence-summary";
import { cpuTaskContracts } from "./cpu-task-contracts";
import { keySigningFor, newAppPool } from "./worker-pools";
import { workerEnvironment } from "./worker-environment";

/** Labels as the token names them, and the purposes their certificate rows give. */
const purposes: Record<string, string> = { "firmaviva-ca-quality-root": "root", "firmaviva-agent-1": "agent" };
const signed: string[] = [];
const signWithKey = keySigningFor({
  purposeOf: async (label) => purposes[label],
  sign: async (label) => (signed.push(label), new Uint8Array([9])),
});

let pool: CpuPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
  signed.length = 0;
});

/** A pool over the app's contracts whose worker asks for the labels its input names (lib/server/testing/hostile-verify-worker.ts). */
function hostilePool() {
  const entry = [process.cwd(), "lib", "server", "testing", "hostile-verify-worker.ts"].join("/");
  return new CpuPool({
    tasks: cpuTaskContracts,
    startWorker: (options) => new Worker(`require("tsx/cjs"); require(${JSON.stringify(entry)});`, { eval: true, ...options }),
    limitError: () => new Error("limit"),
    signWithKey,
    size: 1,
  });
}
const asEvidence = (label: string) => ({ evidence: { process: { id: label } } }) as unknown as EvidenceSummaryInput;

describe("key purposes (issue 37)", () => {
  test("a verification task asking a signature with the root CA's label is refused, and nothing is signed", async () => {
    pool = hostilePool();
    const run = pool.run("verify-pdf", { bytes: new TextEncoder().encode("firmaviva-ca-quality-root"), anchorsDer: [] });
    await expect(run).rejects.toThrow(/verify-pdf may not sign with the key firmaviva-ca-quality-root \(root\)/);
    expect(signed).toEqual([]);
  });

  test("a task signs with the purpose it declared (the evidence summary: agent), never with a CA's", async () => {
    pool = hostilePool();
    expect(cpuTaskContracts["sign-evidence-summary"].keys).toEqual(["agent"]);
    expect(await pool.run("sign-evidence-summary", asEvidence("firmaviva-agent-1"), { timestamp: async () => new Uint8Array() })).toEqual(new Uint8Array([9]));
    await expect(pool.run("sign-evidence-summary", asEvidence("firmaviva-ca-quality-root"), { timestamp: async () => new Uint8Array() })).rejects.toThrow(/may not sign/);
    expect(signed).toEqual(["firmaviva-agent-1"]);
  });

  test("only the stamp and evidence tasks declare keys, and none declares a CA's", () => {
    const declared = Object.fromEntries(Object.entries(cpuTaskContracts).filter(([, contract]) => contract.keys.length > 0).map(([name, contract]) => [name, [...contract.keys]]));
    expect(declared).toEqual({ "plan-and-produce-stamped-pdf": ["agent", "tsa"], "sign-evidence-summary": ["agent"] });
  });

  test("a worker's environment holds no PIN, secret key nor database or storage credentials", async () => {
    const secrets = { PKCS11_PIN: "1234", SECRET_KEY: "k".repeat(64), DATABASE_URL: "postgres://u:p@h/d", S3_SECRET_ACCESS_KEY: "s3", S3_ACCESS_KEY_ID: "id", SMTP_URL: "smtp://u:p@h", LOG_LEVEL: "warn" };
    const saved = { ...process.env };
    Object.assign(process.env, secrets);
    try {
      pool = newAppPool({ size: 1 });
      const names = await pool.run("diagnose-environment", undefined);
      for (const name of Object.keys(secrets).filter((name) => name !== "LOG_LEVEL")) expect(names).not.toContain(name);
      // counter-check: what workers need does reach them
      expect(names).toContain("LOG_LEVEL");
      expect(Object.keys(workerEnvironment(secrets))).toEqual(["LOG_LEVEL"]);
    } finally {
      for (const name of Object.keys(secrets)) if (!(name in saved)) delete process.env[name];
      Object.assign(process.env, saved);
    }
  });
});
