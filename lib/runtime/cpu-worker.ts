import { parentPort } from "node:worker_threads";
import { cpuTasks, type CpuTaskName } from "./cpu-tasks";
import { serializeError } from "./task-errors";

// One task at a time per worker: the pool never sends another before this one answers.
parentPort!.on("message", async (message: { id: number; task: CpuTaskName; input: unknown }) => {
  try {
    const run = cpuTasks[message.task] as (input: unknown) => unknown;
    const output = await run(message.input);
    parentPort!.postMessage({ id: message.id, ok: true, output });
  } catch (error) {
    parentPort!.postMessage({ id: message.id, ok: false, error: serializeError(error) });
  }
});
