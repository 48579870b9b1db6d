import { processSlot } from "@/lib/process-wide/singleton";
const wakeListener = processSlot<() => void>("firmaviva.outbox.wake");

/** Lets request handlers nudge the in-process dispatcher instead of waiting for its next poll. */
export function wakeDispatcher() {
  wakeListener.get()?.();
}

export function onWake(listener: () => void) {
  wakeListener.set(listener);
}
