import { createRequire } from "node:module";
import { cpuTask, type CpuTaskImplementations } from "./cpu-task";

/** The pool's own tasks: readiness asks a worker to answer, tests and the bench prove the limits. */
export const diagnosticTasks = {
  // readiness (/api/health/ready): a worker answers
  ping: cpuTask<undefined, "pong">(),
  // never reached from a route: the pool's tests and the bench prove its time and memory limits with them
  "diagnose-spin": cpuTask<{ ms: number }, "done">(),
  "diagnose-allocate": cpuTask<{ megabytes: number }, number>(),
  // the names of the environment a worker sees (its tests prove no secret is among them)
  "diagnose-environment": cpuTask<undefined, string[]>(),
  // the CommonJS modules a worker has loaded (its tests prove a pool loads only its own tasks' code)
  "diagnose-modules": cpuTask<undefined, string[]>(),
};
export type DiagnosticTasks = typeof diagnosticTasks;

export const diagnosticTaskImplementations: CpuTaskImplementations<DiagnosticTasks> = {
  ping: () => "pong",
  "diagnose-spin": (input) => {
    const until = Date.now() + input.ms;
    while (Date.now() < until);
    return "done";
  },
  "diagnose-allocate": (input) => {
    const chunks: number[][] = [];
    for (let i = 0; i < input.megabytes; i++) chunks.push(new Array(128 * 1024).fill(i));
    return chunks.length;
  },
  "diagnose-environment": () => Object.keys(process.env).sort(),
  "diagnose-modules": () => Object.keys(createRequire(import.meta.url).cache).sort(),
};
