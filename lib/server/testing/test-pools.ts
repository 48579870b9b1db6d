import type { WorkerPools } from "@/lib/runtime/services";
import { newAppPool } from "@/lib/server/worker-pools";

let pools: WorkerPools | undefined;

/** Worker pools over the app's task table for unit tests that run use cases (workers are unref'd: they never hold the run open). */
export function testWorkerPools(): WorkerPools {
  pools ??= { cpu: newAppPool({ name: "cpu", size: 2 }), face: newAppPool({ name: "face", size: 1 }), revocation: newAppPool({ name: "revocation", size: 1 }) };
  return pools;
}
