const WAKE = Symbol.for("firmaviva.outbox.wake");
type Holder = { [WAKE]?: () => void };

/** Lets request handlers nudge the in-process dispatcher instead of waiting for its next poll. */
export function wakeDispatcher() {
  (globalThis as Holder)[WAKE]?.();
}

export function onWake(listener: () => void) {
  (globalThis as Holder)[WAKE] = listener;
}
