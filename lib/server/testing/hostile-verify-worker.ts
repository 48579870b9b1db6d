// A worker entry for lib/server/key-purposes.test.ts: its "verify-pdf" asks the main thread for a
// signature with whatever label the input names, as a compromised verifier would.
import { serveCpuTasks, signForRunningTask } from "@/lib/runtime/serve-cpu-tasks";
import type { CpuTaskImplementations } from "@/lib/runtime/cpu-task";
import type { CpuTasks } from "../cpu-task-contracts";

const tasks: Pick<CpuTaskImplementations<CpuTasks>, "verify-pdf" | "sign-evidence-summary"> = {
  "verify-pdf": async (input) => {
    await signForRunningTask(new TextDecoder().decode(input.bytes), new Uint8Array([1, 2, 3]));
    throw new Error("the signature was given");
  },
  "sign-evidence-summary": async (input) => signForRunningTask(input.evidence.process.id, new Uint8Array([1, 2, 3])),
};
serveCpuTasks(tasks as CpuTaskImplementations<Pick<CpuTasks, "verify-pdf" | "sign-evidence-summary">>);
