/**
 * Process-wide values. Next.js bundles each route (and instrumentation) apart, and vitest and dev
 * reloads load modules again, so a module-level `let` would give each copy its own instance: the
 * pools, the database, the registries and the caches live on globalThis under a Symbol.for name
 * instead, which every copy of a module resolves to the same slot. Worker threads have their own.
 */
type Slots = Record<symbol, unknown>;

const slots = () => globalThis as unknown as Slots;

/** The one value named `name` in this process, created by `create` on first use. */
export function processSingleton<T>(name: string, create: () => T): T {
  const key = Symbol.for(name);
  if (!(key in slots())) slots()[key] = create();
  return slots()[key] as T;
}

/**
 * The one value loaded asynchronously under `name`: concurrent first calls share one load, and a
 * failed load is forgotten so the next call retries.
 */
export function processSingletonLoad<T>(name: string, load: () => Promise<T>): Promise<T> {
  return processSingleton(name, () =>
    load().catch((error: unknown) => {
      forgetProcessSingleton(name);
      throw error;
    }),
  );
}

/** Drops the value named `name`, so the next call creates it again (a failed start, a test reset). */
export function forgetProcessSingleton(name: string): void {
  delete slots()[Symbol.for(name)];
}

/** A process-wide slot one module fills and others read (a registration, a listener), empty at first. */
export function processSlot<T>(name: string): { get(): T | undefined; set(value: T | undefined): void } {
  const key = Symbol.for(name);
  return {
    get: () => slots()[key] as T | undefined,
    set: (value) => {
      slots()[key] = value;
    },
  };
}
