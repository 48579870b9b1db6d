import { describe, expect, it } from "vitest";
import { checkReadiness } from "./check-readiness";

const answers = { execute: async () => ({}) } as never;
const store = (get: () => Promise<Uint8Array | null>) => ({ get });
const pool = (run: () => Promise<unknown>, started = true) => ({ run, started }) as never;
const never = () => new Promise<never>(() => {});

describe("readiness", () => {
  it("is ok when everything answers, the face pool not yet started counting as idle", async () => {
    const result = await checkReadiness({ db: answers, blobs: store(async () => null), cpuPool: pool(async () => "pong"), facePool: pool(never, false) });
    expect(result).toEqual({ status: "ok", checks: { database: "ok", blobs: "ok", cpuWorkers: "ok", faceWorkers: "idle" } });
  });

  it.each([
    ["database", { db: { execute: async () => Promise.reject(new Error("connection refused")) } as never }, "failed"],
    ["blobs", { blobs: store(() => Promise.reject(new Error("bucket gone"))) }, "failed"],
    ["cpuWorkers", { cpuPool: pool(never) }, "timeout"],
    ["faceWorkers", { facePool: pool(() => Promise.reject(new Error("worker died"))) }, "failed"],
  ])("names the %s when it does not answer", async (name, broken, verdict) => {
    const healthy = { db: answers, blobs: store(async () => null), cpuPool: pool(async () => "pong"), facePool: pool(async () => "pong") };
    const result = await checkReadiness({ ...healthy, ...broken, limitMs: 200 });
    expect(result.status).toBe("error");
    expect(result.checks).toMatchObject({ [name]: verdict });
    expect(Object.entries(result.checks).filter(([, v]) => v !== "ok").map(([k]) => k)).toEqual([name]);
  });
});
