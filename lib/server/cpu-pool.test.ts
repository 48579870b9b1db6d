import fs from "node:fs";
import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, test } from "vitest";
import { isAppError } from "@/lib/errors";
import { PdfError } from "@/lib/pdf/errors";
import { CpuPool } from "@/lib/runtime/cpu-pool";
import { diagnosticTasks } from "@/lib/runtime/diagnostic-tasks";
import { newAppPool } from "./worker-pools";
import type { CpuTasks } from "./cpu-task-contracts";
import { fixturePath } from "@/test/fixtures-dir";

const signed = new Uint8Array(fs.readFileSync(fixturePath("pdfs/signed-by-others/poppler-two-signatures.pdf")));
let pool: CpuPool<CpuTasks> | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

/** Event-loop delay while `work` runs: what /api/health would feel. */
async function worstLoopDelay(work: Promise<unknown>): Promise<number> {
  let worst = 0;
  let last = performance.now();
  let done = false;
  void work.finally(() => (done = true)).catch(() => undefined);
  while (!done) {
    await new Promise((resolve) => setImmediate(resolve));
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }
  return worst;
}

describe("CpuPool", () => {
  test("the public lane keeps to its share: signing still gets a worker and a queue while anonymous tasks fill theirs", async () => {
    pool = newAppPool({ size: 2, maxQueue: 4, publicLane: { running: 1, queued: 2 } });
    await Promise.all([pool.run("diagnose-spin", { ms: 1 }), pool.run("diagnose-spin", { ms: 1 })]); // both workers booted
    const finished: string[] = [];
    const publicTasks = [0, 1, 2].map((n) => pool!.run("diagnose-spin", { ms: 3_000 }, {}, [], { lane: "public" }).then((out) => (finished.push(`public ${n}`), out)));
    // one running, two queued: the next anonymous task is refused at once
    const refused = await pool.run("diagnose-spin", { ms: 1 }, {}, [], { lane: "public" }).catch((e: unknown) => e);
    expect(isAppError(refused) && refused.code).toBe("BUSY");
    // a signing-lane task takes the free worker instead of waiting behind the anonymous queue
    expect(await pool.run("diagnose-spin", { ms: 1 })).toBe("done");
    finished.push("signing");
    expect(await Promise.all(publicTasks)).toEqual(["done", "done", "done"]);
    // the anonymous tasks ran one at a time on their one worker, the signing task before the second ended
    expect(finished.indexOf("signing")).toBeLessThan(finished.indexOf("public 1"));
  }, 60_000);

  test("runs a verification in a worker and returns the same report as in-process", async () => {
    pool = newAppPool({ size: 1 });
    const report = await pool.run("verify-pdf", { bytes: signed, anchorsDer: [] });
    expect(report.signatures.map((s) => s.status)).toEqual(["untrusted", "untrusted"]);
  }, 60_000);

  test("moves the buffers it is given up instead of copying them; the task reads them as sent", async () => {
    pool = newAppPool({ size: 1 });
    const bytes = new Uint8Array(signed);
    const report = await pool.run("verify-pdf", { bytes, anchorsDer: [] }, {}, [bytes.buffer]);
    expect(report.signatures).toHaveLength(2);
    // detached here: the worker owns it now
    expect(bytes.byteLength).toBe(0);
  }, 60_000);

  test("expected errors come back as the same class and code", async () => {
    pool = newAppPool({ size: 1 });
    const error = await pool.run("verify-pdf", { bytes: new TextEncoder().encode("%PDF-1.7 nothing"), anchorsDer: [] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PdfError);
    expect((error as PdfError).code).toBe("INVALID_PDF");
  }, 60_000);

  test("a task past its time limit is stopped, its worker replaced, and the next task runs", async () => {
    pool = newAppPool({ size: 1, taskTimeoutMs: 1_000 });
    await pool.run("diagnose-spin", { ms: 1 }); // the worker is up before the clock starts
    const error = await pool.run("diagnose-spin", { ms: 60_000 }).catch((e: unknown) => e);
    expect((error as PdfError).code).toBe("PDF_TOO_COMPLEX");
    expect(await pool.run("diagnose-spin", { ms: 1 })).toBe("done");
  }, 60_000);

  test("a worker loads the code of the tasks it ran, not the whole table's", async () => {
    pool = newAppPool({ size: 1 });
    const packagesLoaded = async () => {
      const modules = await pool!.run("diagnose-modules", undefined);
      const has = (name: string) => modules.some((file) => file.includes(`/node_modules/${name}/`));
      return { pdfLib: has("pdf-lib"), pkijs: has("pkijs"), fontkit: has("@pdf-lib/fontkit"), jpegDecoder: has("jpeg-js"), qrcode: has("qrcode") };
    };
    expect(await packagesLoaded()).toEqual({ pdfLib: false, pkijs: false, fontkit: false, jpegDecoder: false, qrcode: false });
    await pool.run("verify-pdf", { bytes: signed.slice(), anchorsDer: [] });
    // the verifier's code, and not the stamp's (fonts, QR) nor the face check's (JPEG frames)
    expect(await packagesLoaded()).toEqual({ pdfLib: true, pkijs: true, fontkit: false, jpegDecoder: false, qrcode: false });
  }, 60_000);

  test("a worker loads its pool's preloaded tasks' code as it starts, before any of them runs", async () => {
    pool = newAppPool({ size: 1, preloadTasks: ["verify-pdf"] });
    const loaded = async (name: string) => (await pool!.run("diagnose-modules", undefined)).some((file) => file.includes(`/node_modules/${name}/`));
    // the code loads in the background: asked until it is there
    while (!(await loaded("pkijs"))) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await loaded("@pdf-lib/fontkit")).toBe(false);
  }, 60_000);

  test("a task kind's first run loads its code before its time limit starts; the limit holds for the task itself", async () => {
    // the worker's "diagnose-spin" code takes 2 s to load, twice the limit (lib/server/testing/slow-loading-worker.ts)
    const entry = [process.cwd(), "lib", "server", "testing", "slow-loading-worker.ts"].join("/");
    const slow = new CpuPool({
      tasks: diagnosticTasks,
      startWorker: (options) => new Worker(`require("tsx/cjs"); require(${JSON.stringify(entry)});`, { eval: true, ...options }),
      limitError: ({ kind }) => new Error(`past its ${kind} limit`),
      size: 1,
      taskTimeoutMs: 1_000,
    });
    try {
      expect(await slow.run("ping", undefined)).toBe("pong"); // the worker is up; the spin's code is not loaded yet
      expect(await slow.run("diagnose-spin", { ms: 1 })).toBe("done");
      await expect(slow.run("diagnose-spin", { ms: 60_000 })).rejects.toThrow("past its time limit");
    } finally {
      await slow.close();
    }
  }, 60_000);

  test("one owner's full line refuses only that owner; another owner's task is served next, not after the whole line", async () => {
    pool = newAppPool({ size: 1, maxQueue: 32, maxQueuePerOwner: 2 });
    await pool.run("diagnose-spin", { ms: 1 }); // the worker is up
    const finished: string[] = [];
    const track = (name: string, owner: string) => pool!.run("diagnose-spin", { ms: 300 }, {}, [], { owner }).then(() => void finished.push(name));
    const running = track("busy-0", "busy-org");
    const waiting = [track("busy-1", "busy-org"), track("busy-2", "busy-org")];
    const refused = await pool.run("diagnose-spin", { ms: 1 }, {}, [], { owner: "busy-org" }).catch((e: unknown) => e);
    expect(isAppError(refused) && refused.code).toBe("BUSY");
    const other = track("other-1", "other-org");
    await Promise.all([running, ...waiting, other]);
    expect(finished).toEqual(["busy-0", "busy-1", "other-1", "busy-2"]);
  }, 60_000);

  test("a task past its memory limit gets PDF_TOO_COMPLEX and the process lives on", async () => {
    pool = newAppPool({ size: 1, maxHeapMb: 64 });
    const error = await pool.run("diagnose-allocate", { megabytes: 1024 }).catch((e: unknown) => e);
    expect((error as PdfError).code).toBe("PDF_TOO_COMPLEX");
    expect(await pool.run("diagnose-spin", { ms: 1 })).toBe("done");
  }, 60_000);

  test("a full queue answers BUSY at once instead of piling up work", async () => {
    pool = newAppPool({ size: 1, maxQueue: 2 });
    await pool.run("diagnose-spin", { ms: 1 });
    const running = [pool.run("diagnose-spin", { ms: 1_500 }), pool.run("diagnose-spin", { ms: 1 }), pool.run("diagnose-spin", { ms: 1 })];
    const refused = await pool.run("diagnose-spin", { ms: 1 }).catch((e: unknown) => e);
    expect(isAppError(refused) && refused.code).toBe("BUSY");
    await Promise.all(running);
  }, 60_000);

  test("CPU work in the pool leaves the event loop free", async () => {
    pool = newAppPool({ size: 1 });
    await pool.run("diagnose-spin", { ms: 1 });
    const delay = await worstLoopDelay(pool.run("diagnose-spin", { ms: 1_500 }));
    // the same spin on the main thread would block it for 1,500 ms
    expect(delay).toBeLessThan(500);
  }, 60_000);
});
