"use client";

import type { FormHTMLAttributes, ReactNode } from "react";
import { useHydrated } from "./use-hydrated";

/**
 * Disables the buttons and fields inside it until React has hydrated the page: before that, a
 * click runs no handler at all. It is a fieldset with `display: contents` (no box, so the layout
 * rules still see its children as the parent's) and no role (screen readers hear no extra group).
 */
export function HydrationGate({ children }: { children: ReactNode }) {
  const hydrated = useHydrated();
  return (
    <fieldset className="hydration-gate" role="presentation" disabled={!hydrated}>
      {children}
    </fieldset>
  );
}

/**
 * A form that takes no input until hydrated. react-hook-form writes each field's default value
 * into the DOM when it registers the field, so whatever a person typed or ticked in the server's
 * HTML (a slow phone, a busy machine) would be silently replaced, and a submit before hydration
 * would be a plain GET that loses the form.
 */
export function HydratedForm({ children, ...form }: FormHTMLAttributes<HTMLFormElement>) {
  return (
    <form {...form}>
      <HydrationGate>{children}</HydrationGate>
    </form>
  );
}
