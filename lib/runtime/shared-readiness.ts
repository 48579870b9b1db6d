import type { Services } from "./services";
import { checkReadiness, type Readiness } from "./check-readiness";

/** How long one readiness answer serves every caller: the route is anonymous, the check is not free. */
export const READINESS_CACHE_MS = 2_000;

/**
 * `check`, shared: callers while a check runs wait for that one, and its answer serves everyone
 * for `ttlMs` after it came back (then the next caller starts a new check). A check that throws is
 * not kept.
 */
export function shareAnswer<T>(check: () => Promise<T>, options: { ttlMs: number; now?: () => number }): () => Promise<T> {
  const now = options.now ?? Date.now;
  let inFlight: Promise<T> | null = null;
  let last: { at: number; value: T } | null = null;
  return () => {
    if (last && now() - last.at < options.ttlMs) return Promise.resolve(last.value);
    inFlight ??= check()
      .then((value) => {
        last = { at: now(), value };
        return value;
      })
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  };
}

const shared = new WeakMap<Services, () => Promise<Readiness>>();

/**
 * This instance's readiness as `/api/health/ready` answers it: one S3 read and one pool ping per
 * 2 s at most, however many anonymous callers ask.
 */
export function sharedReadiness(services: Services): Promise<Readiness> {
  let answer = shared.get(services);
  if (!answer) {
    answer = shareAnswer(() => checkReadiness({ db: services.db, blobs: services.blobs, cpuPool: services.pools.cpu, facePool: services.pools.face }), { ttlMs: READINESS_CACHE_MS });
    shared.set(services, answer);
  }
  return answer();
}
