/*
 * The typed boundary of the worker pools. A domain declares the tasks it runs off the event loop as
 * contracts (`cpuTask<Input, Output, Calls>({ keys })`); the composition root (lib/server/cpu-tasks.ts)
 * implements every contract, and the compiler checks both sides against the same types: the task
 * name, its input, its output, and the main-thread calls the worker may make while it runs. The
 * contract also carries, at run time, the key purposes the task may ask the main thread to sign with.
 */

/** What a task may ask the main thread for while it runs (database, network, keys it does not hold). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a call's own parameters are checked where the contract names them
export type MainThreadCalls = Record<string, (...args: any[]) => Promise<unknown>>;

/** A task that needs nothing from the main thread. */
export type NoCalls = Record<never, never>;

/**
 * One task's contract: `keys` names the key purposes (the app's words: "agent", "tsa") whose keys
 * the task may ask the main thread to sign with, none by default; `types` is never set, it only
 * carries the types.
 */
export type CpuTask<Input, Output, Calls extends MainThreadCalls = NoCalls> = { readonly keys: readonly string[]; readonly types?: { input: Input; output: Output; calls: Calls } };

/** Task name → contract. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the widest table; each pool and caller narrows it to its own contracts
export type CpuTaskTable = Record<string, CpuTask<any, any, any>>;

type Types<T> = T extends CpuTask<infer Input, infer Output, infer Calls extends MainThreadCalls> ? { input: Input; output: Output; calls: Calls } : never;
export type TaskInput<T> = Types<T>["input"];
export type TaskOutput<T> = Types<T>["output"];
export type TaskCalls<T> = Types<T>["calls"];

/** A contract, declared by the domain that runs the task, with the key purposes it may sign with. */
export function cpuTask<Input, Output, Calls extends MainThreadCalls = NoCalls>(declaration: { keys?: readonly string[] } = {}): CpuTask<Input, Output, Calls> {
  return { keys: Object.freeze([...(declaration.keys ?? [])]) };
}

/**
 * The call every task may make: a signature with a key only the main thread holds (named by its
 * label). The pool answers it through the composition root's handler, and only for a key whose
 * purpose the task declared.
 */
export type BuiltInCalls = { "sign-with-token-key": (label: string, data: Uint8Array) => Promise<Uint8Array> };

/** What the pool's key-signing handler is asked: which task, the purposes it declared, the key and the data. */
export type KeySigningRequest = { task: string; purposes: readonly string[]; label: string; data: Uint8Array };
export type KeySigningHandler = (request: KeySigningRequest) => Promise<Uint8Array>;

/** The running task's line home, typed by its contract: `context.call("timestamp", digest)`. */
export type TaskContext<Calls extends MainThreadCalls> = {
  call: <Name extends keyof Calls & string>(name: Name, ...args: Parameters<Calls[Name]>) => ReturnType<Calls[Name]>;
};

/** The worker side of a table: one function per contract, given the contract's input and calls. */
export type CpuTaskImplementations<T extends CpuTaskTable> = {
  [Name in keyof T]: (input: TaskInput<T[Name]>, context: TaskContext<TaskCalls<T[Name]>>) => TaskOutput<T[Name]> | Promise<TaskOutput<T[Name]>>;
};
