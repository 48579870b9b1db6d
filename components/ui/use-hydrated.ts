import { useSyncExternalStore } from "react";

const neverChanges = () => () => {};

/** False in the server's HTML and during hydration, true once React runs the page in the browser. */
export function useHydrated(): boolean {
  return useSyncExternalStore(neverChanges, () => true, () => false);
}
