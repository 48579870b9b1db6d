import { describe, expect, it } from "vitest";
import { forgetProcessSingleton, processSingleton, processSingletonLoad, processSlot } from "./singleton";

describe("process-wide singletons", () => {
  it("creates a value once per name and keeps it on globalThis, where another copy of a module finds it", () => {
    let created = 0;
    const first = processSingleton("firmaviva.test.once", () => ({ n: ++created }));
    expect(processSingleton("firmaviva.test.once", () => ({ n: ++created }))).toBe(first);
    expect(created).toBe(1);
    expect((globalThis as unknown as Record<symbol, unknown>)[Symbol.for("firmaviva.test.once")]).toBe(first);
    expect(processSingleton("firmaviva.test.other", () => ({ n: ++created }))).not.toBe(first);
    forgetProcessSingleton("firmaviva.test.once");
    expect(processSingleton("firmaviva.test.once", () => ({ n: ++created })).n).toBe(3);
  });

  it("shares one load between concurrent callers, and forgets a failed load so the next call retries", async () => {
    let attempts = 0;
    const failing = () => Promise.reject(new Error(`attempt ${++attempts}`));
    const [a, b] = [processSingletonLoad("firmaviva.test.load", failing), processSingletonLoad("firmaviva.test.load", failing)];
    expect(a).toBe(b);
    await expect(a).rejects.toThrow("attempt 1");
    await expect(processSingletonLoad("firmaviva.test.load", async () => `loaded after ${attempts}`)).resolves.toBe("loaded after 1");
    await expect(processSingletonLoad("firmaviva.test.load", async () => "loaded again")).resolves.toBe("loaded after 1");
  });

  it("a slot is empty until set, and every holder of the name sees the same value", () => {
    const writer = processSlot<() => string>("firmaviva.test.slot");
    expect(writer.get()).toBeUndefined();
    writer.set(() => "called");
    expect(processSlot<() => string>("firmaviva.test.slot").get()?.()).toBe("called");
    writer.set(undefined);
    expect(processSlot("firmaviva.test.slot").get()).toBeUndefined();
  });
});
