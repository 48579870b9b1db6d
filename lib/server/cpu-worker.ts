// The worker threads' entry point (started by lib/runtime/cpu-pool.ts): the app's task table, served.
import { serveCpuTasks } from "@/lib/runtime/serve-cpu-tasks";
import { cpuTasks } from "./cpu-tasks";

serveCpuTasks(cpuTasks);
