import { Worker } from "node:worker_threads";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { pkiCertificates } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { PdfError } from "@/lib/pdf/errors";
import { signWithTokenKey } from "@/lib/pki/signing-key";
import { CpuPool, type CpuPoolOptions, type TaskLimit } from "@/lib/runtime/cpu-pool";
import type { CpuTaskTable, KeySigningHandler } from "@/lib/runtime/cpu-task";
import type { WorkerPools } from "@/lib/runtime/services";
import { cpuTaskContracts, type CpuTasks } from "./cpu-task-contracts";
import { workerEnvironment } from "./worker-environment";

/*
 * The composition root of the worker pools: which tasks each pool runs, the worker entry, what a
 * stopped task means to its callers, which keys a task may have signed, and the environment a
 * worker sees. The pools are handed to use cases inside the services (lib/runtime/services.ts).
 */

/**
 * Warm, each main-pool worker kept a 32 MB young generation (V8's default grown under load; 64 of
 * the pool's 157 MB heap with 2 workers, bench:startup); a task's garbage fits in far less.
 */
const CPU_WORKER_YOUNG_GENERATION_MB = 16;

/** Facial tries one organization may have waiting for the face worker. */
export const FACE_QUEUE_PER_ORGANIZATION = 8;

const { "judge-facial-try": judgeFacialTry, "warm-facial-check": warmFacialCheck, "analyze-facial-frame": analyzeFacialFrame, "read-id-document-ahead": readIdDocumentAhead, "check-outside-crl": checkOutsideCrl, ...mainTasks } = cpuTaskContracts;
const { ping, "diagnose-spin": spin, "diagnose-allocate": allocate } = cpuTaskContracts;
/** Each pool runs its own tasks only (a face task never lands on the main pool); every pool answers readiness pings. */
const poolTasks = {
  cpu: mainTasks,
  face: { ping, "diagnose-spin": spin, "diagnose-allocate": allocate, "judge-facial-try": judgeFacialTry, "warm-facial-check": warmFacialCheck, "analyze-facial-frame": analyzeFacialFrame, "read-id-document-ahead": readIdDocumentAhead },
  revocation: { ping, "check-outside-crl": checkOutsideCrl },
};

/** A PDF, PKCS#12 or evidence task past its limits: the input was too costly, the server lives on. */
const tooComplex = ({ task, kind, timeoutMs }: TaskLimit) =>
  new PdfError("PDF_TOO_COMPLEX", { reason: kind === "time" ? `task ${task} ran past ${timeoutMs} ms` : "the task ran out of its memory limit" });
/** A facial try past its limits says nothing about the document: the signer tries again shortly. */
const faceBusy = () => new AppError("BUSY", "El análisis facial no terminó a tiempo; reintente en unos segundos.");
/** A CRL check past its limits: the caller records the CRL as unavailable (fetch-outside-revocation.ts). */
const crlUnavailable = ({ kind }: TaskLimit) => new Error(`the CRL check ran past its ${kind} limit`);

/**
 * Starts a worker on the app's entry. Built, the bundler compiles the entry into its own chunk only
 * when it sees `new Worker(new URL(literal, import.meta.url), { literal options })`: with the options
 * in a variable it copied cpu-worker.ts as a plain asset, which Node cannot run. Under vitest the
 * sources run as they are: tsx compiles the entry, and its ESM hooks the tasks' code, which the
 * worker loads with `import()` (lib/server/cpu-tasks.ts).
 */
function startAppWorker(options: { resourceLimits: NonNullable<ConstructorParameters<typeof Worker>[1]>["resourceLimits"]; env: Record<string, string> }): Worker {
  if (process.env.VITEST) {
    const entry = [process.cwd(), "lib", "server", "cpu-worker.ts"].join("/");
    return new Worker(`require("tsx/cjs"); import("tsx/esm/api").then((tsx) => { tsx.register(); require(${JSON.stringify(entry)}); });`, { eval: true, ...options });
  }
  return new Worker(new URL("./cpu-worker.ts", import.meta.url), { resourceLimits: options.resourceLimits, env: options.env });
}

/**
 * Signs for a task with a main-thread (PKCS#11) key only when the key's purpose, read from the row
 * that names its label, is one the task's contract declared: the anonymous verifier's tasks declare
 * none, so no hostile upload can reach the CA's key through them.
 */
export function keySigningFor(deps: { purposeOf: (label: string) => Promise<string | undefined>; sign: (label: string, data: Uint8Array) => Promise<Uint8Array> | Uint8Array }): KeySigningHandler {
  return async ({ task, purposes, label, data }) => {
    const purpose = await deps.purposeOf(label);
    if (!purpose || !purposes.includes(purpose)) throw new Error(`the task ${task} may not sign with the key ${label} (${purpose ?? "unknown purpose"}); it may use: ${purposes.join(", ") || "no key"}`);
    return deps.sign(label, data);
  };
}

/** The purpose of a token key, from the certificate row that names its label (labels never change hands). */
export function keyPurposes(db: Db): (label: string) => Promise<string | undefined> {
  const known = new Map<string, string>();
  return async (label) => {
    const cached = known.get(label);
    if (cached) return cached;
    const [row] = await db.select({ purpose: pkiCertificates.purpose }).from(pkiCertificates).where(eq(pkiCertificates.privateKeyLabel, label)).limit(1);
    if (row) known.set(label, row.purpose);
    return row?.purpose;
  };
}

type PoolSettings<Tasks extends CpuTaskTable> = Omit<CpuPoolOptions<Tasks>, "tasks" | "startWorker" | "limitError"> & Partial<Pick<CpuPoolOptions<Tasks>, "limitError">>;

/** A pool over the app's whole task table, with the app's worker entry and environment (tests, benches). */
export function newAppPool(settings: PoolSettings<CpuTasks> = {}): CpuPool<CpuTasks> {
  return new CpuPool({ tasks: cpuTaskContracts, startWorker: startAppWorker, limitError: tooComplex, workerEnv: workerEnvironment(process.env), ...settings });
}

/** The process's three pools, sized from the environment (validated in lib/config/env-schema.ts). */
export function createWorkerPools(deps: { db: Db; env?: Record<string, string | undefined> }): WorkerPools {
  const env = deps.env ?? process.env;
  const number = (name: string) => numberFrom(env[name]);
  const common = {
    startWorker: startAppWorker,
    workerEnv: workerEnvironment(env),
    signWithKey: keySigningFor({ purposeOf: keyPurposes(deps.db), sign: signWithTokenKey }),
  };
  return {
    // signing, verification, PKCS#12 imports; the public lane is the anonymous verifier's share
    cpu: new CpuPool({
      ...common,
      tasks: poolTasks.cpu,
      limitError: tooComplex,
      name: "cpu",
      size: number("CPU_WORKERS"),
      maxQueue: number("CPU_QUEUE_LIMIT"),
      taskTimeoutMs: number("CPU_TASK_TIMEOUT_MS"),
      maxYoungGenerationMb: CPU_WORKER_YOUNG_GENERATION_MB,
      // one stays for readiness and the next request; the first burst after idle waits for the second to boot (bench:startup)
      idleExit: { afterMs: 60_000, keep: 1 },
      publicLane: { running: number("VERIFY_WORKERS"), queued: number("VERIFY_QUEUE_LIMIT") },
      // the signing code (most of the table's) is ready for the first request after readiness, as
      // when every worker loaded the whole table; the face and revocation pools load only their own
      preloadTasks: ["plan-and-produce-stamped-pdf", "produce-process-signature"],
    }),
    // the face models (~300 MB with the WASM runtime) load once, in one worker shared by every
    // organization in per-organization lines served in turn; they go back to the system when idle
    face: new CpuPool({
      ...common,
      tasks: poolTasks.face,
      limitError: faceBusy,
      name: "face",
      size: 1,
      maxQueue: Math.max(number("CPU_QUEUE_LIMIT") ?? 32, 4 * FACE_QUEUE_PER_ORGANIZATION),
      maxQueuePerOwner: FACE_QUEUE_PER_ORGANIZATION,
      taskTimeoutMs: 120_000,
      maxHeapMb: 1024,
      idleExit: { afterMs: 10 * 60_000, keep: 0 },
    }),
    // outside CRLs: asked for by a signing task that holds a main-pool worker while it waits, so
    // using that pool could deadlock it
    revocation: new CpuPool({
      ...common,
      tasks: poolTasks.revocation,
      limitError: crlUnavailable,
      name: "revocation",
      size: 1,
      maxQueue: number("CPU_QUEUE_LIMIT"),
      taskTimeoutMs: 30_000,
      maxHeapMb: 512,
      idleExit: { afterMs: 60_000, keep: 0 },
    }),
  };
}

function numberFrom(raw: string | undefined): number | undefined {
  const value = Number(raw);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}
