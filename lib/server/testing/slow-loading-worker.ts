// A worker entry for lib/server/cpu-pool.test.ts: "diagnose-spin" has code that takes 2 s to load,
// awaited by the task itself as the app's lazily loaded tasks do (lib/server/cpu-tasks.ts).
import { serveCpuTasks } from "@/lib/runtime/serve-cpu-tasks";
import { diagnosticTaskImplementations, type DiagnosticTasks } from "@/lib/runtime/diagnostic-tasks";

const SLOW_LOAD_MS = 2_000;

let loading: Promise<void> | undefined;
/** Stands for a module whose evaluation is slow (a busy machine, sources compiled on the fly): it holds the thread. */
const loadSpinCode = () =>
  (loading ??= Promise.resolve().then(() => {
    const until = Date.now() + SLOW_LOAD_MS;
    while (Date.now() < until);
  }));

serveCpuTasks<DiagnosticTasks>(
  {
    ...diagnosticTaskImplementations,
    "diagnose-spin": async (input, context) => {
      await loadSpinCode();
      return diagnosticTaskImplementations["diagnose-spin"](input, context);
    },
  },
  { "diagnose-spin": loadSpinCode },
);
