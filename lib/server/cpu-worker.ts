// The worker threads' entry point (started by lib/server/worker-pools.ts): the app's task table, served.
import { registerTokenSigning } from "@/lib/pki/signing-key";
import { serveCpuTasks, signForRunningTask } from "@/lib/runtime/serve-cpu-tasks";
import { cpuTaskModules, cpuTasks } from "./cpu-tasks";

// a token key (PKCS11_MODULE) travels here as a label: the main thread, which holds the token
// session, signs for the running task, for the key purposes the task's contract declared
registerTokenSigning(signForRunningTask);
serveCpuTasks(cpuTasks, cpuTaskModules);
