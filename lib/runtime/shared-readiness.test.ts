import { describe, expect, it } from "vitest";
import { READINESS_CACHE_MS, shareAnswer } from "./shared-readiness";

/** A check the test finishes by hand, counting how often it was started; and a clock the test moves. */
function harness() {
  let clock = 1_000_000;
  const started: ((value: string) => void)[] = [];
  const answer = shareAnswer(() => new Promise<string>((resolve) => started.push(resolve)), { ttlMs: READINESS_CACHE_MS, now: () => clock });
  return { answer, started, advance: (ms: number) => (clock += ms) };
}

describe("shareAnswer (the /api/health/ready cache)", () => {
  it("callers while a check runs share it: 50 parallel calls start one check and get its answer", async () => {
    const { answer, started } = harness();
    const calls = Array.from({ length: 50 }, () => answer());
    expect(started).toHaveLength(1);
    started[0]("first");
    expect(await Promise.all(calls)).toEqual(Array(50).fill("first"));
  });

  it("the answer serves for 2 s after it came back; then the next caller starts a new check", async () => {
    const { answer, started, advance } = harness();
    const first = answer();
    // a slow check: its 2 s count from its answer, not from its start
    advance(5_000);
    started[0]("first");
    await first;
    advance(READINESS_CACHE_MS - 1);
    expect(await Promise.all(Array.from({ length: 10 }, () => answer()))).toEqual(Array(10).fill("first"));
    expect(started).toHaveLength(1);
    advance(1);
    const second = answer();
    expect(started).toHaveLength(2);
    started[1]("second");
    expect(await second).toBe("second");
  });

  it("a check that throws is not kept: the next caller starts another", async () => {
    let calls = 0;
    const answer = shareAnswer(async () => {
      calls++;
      if (calls === 1) throw new Error("database down");
      return "ok";
    }, { ttlMs: READINESS_CACHE_MS, now: () => 0 });
    await expect(answer()).rejects.toThrow("database down");
    await expect(answer()).resolves.toBe("ok");
    expect(calls).toBe(2);
  });
});
